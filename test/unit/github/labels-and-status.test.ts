import type nock from 'nock';
import { ensureLabel, FAILED_LABEL } from '../../../src/github/labels.js';
import { createStatusComment } from '../../../src/github/status-comment.js';
import { silentLogger } from '../../../src/logger.js';
import { testClient } from '../../helpers/github-client.js';
import { useHttpMock } from '../../helpers/http-mock.js';

const http = useHttpMock();

const repo = { owner: 'octo', repo: 'app' };
const api = (): nock.Scope => http.api();

describe('ensureLabel', () => {
  it('creates the label when the repository lacks it', async () => {
    api().get('/repos/octo/app/labels/automation-failed').reply(404, {});
    api()
      .post('/repos/octo/app/labels', {
        name: 'automation-failed',
        color: 'b60205',
        description: FAILED_LABEL.description,
      })
      .reply(201, {});
    await ensureLabel(testClient(), repo, FAILED_LABEL);
  });

  it('leaves an existing label alone and accepts losing a creation race', async () => {
    api().get('/repos/octo/app/labels/automation-failed').reply(200, {});
    await ensureLabel(testClient(), repo, FAILED_LABEL);
    api().get('/repos/octo/app/labels/automation-failed').reply(404, {});
    api().post('/repos/octo/app/labels').reply(422, { message: 'already_exists' });
    await ensureLabel(testClient(), repo, FAILED_LABEL);
  });
});

describe('createStatusComment', () => {
  const options = {
    octokit: testClient(),
    repo,
    issueNumber: 5,
    runId: 'run-abc',
    stageOrder: ['triage', 'plan'],
    command: '/autofix',
    log: silentLogger,
    facts: { stages: {} },
  };

  it("ignores a user's comment that starts with the run's marker and posts its own", async () => {
    api()
      .get('/repos/octo/app/issues/5/comments')
      .query(true)
      .reply(200, [
        { id: 3, body: '<!-- autofix-run:run-abc -->\nplanted', user: { type: 'User' } },
      ]);
    api().post('/repos/octo/app/issues/5/comments').reply(201, { id: 8 });
    const target = createStatusComment(options).target();
    expect(await target.find()).toBeUndefined();
    expect(await target.create('body')).toBe(8);
  });

  it('reuses the comment a previous attempt created (found by its marker) and edits it', async () => {
    api()
      .get('/repos/octo/app/issues/5/comments')
      .query(true)
      .reply(200, [
        { id: 1, body: 'hello', user: { type: 'User' } },
        { id: 2, body: '<!-- autofix-run:run-abc -->\nold', user: { type: 'Bot' } },
      ]);
    api()
      .patch('/repos/octo/app/issues/comments/2', (b: { body: string }) =>
        b.body.includes('| triage | ✅ done'),
      )
      .reply(200, {});
    const status = createStatusComment(options);
    status.setStage('triage', { state: 'done' });
    const id = await status.target().find();
    expect(id).toBe(2);
    await status.target().update(id!, status.render());
    expect(status.commentId()).toBe(2);
  });

  it('creates the comment, then edits it with the facts rendered', async () => {
    api().post('/repos/octo/app/issues/5/comments').reply(201, { id: 7 });
    api()
      .patch('/repos/octo/app/issues/comments/7', (b: { body: string }) =>
        b.body.includes('**Risk:** LOW'),
      )
      .reply(200, {});
    const status = createStatusComment(options);
    expect(await status.target().create(status.render())).toBe(7);
    expect(status.commentId()).toBe(7);
    status.merge({ risk: 'LOW' });
    await status.target().update(7, status.render());
  });

  it('never throws when GitHub refuses the edit', async () => {
    api().patch('/repos/octo/app/issues/comments/7').reply(500, {});
    const status = createStatusComment({ ...options, commentId: 7 });
    await expect(status.target().update(7, status.render())).resolves.toBeUndefined();
  });
});
