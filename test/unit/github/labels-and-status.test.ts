import nock from 'nock';
import { ensureLabel, FAILED_LABEL } from '../../../src/github/labels.js';
import { createStatusComment } from '../../../src/github/status-comment.js';
import { silentLogger } from '../../../src/logger.js';
import { testClient } from '../../helpers/github-client.js';

const repo = { owner: 'octo', repo: 'app' };
const api = (): nock.Scope => nock('https://api.github.com');

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});
afterAll(() => {
  nock.enableNetConnect();
  // Its interceptors patch node:http for the whole worker: later test files must get the real one.
  nock.restore();
});

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
    const status = createStatusComment(options);
    expect(await status.ensure()).toBe(8);
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
    await status.publish();
    expect(status.commentId()).toBe(2);
  });

  it('creates the comment once, then edits it', async () => {
    api().get('/repos/octo/app/issues/5/comments').query(true).reply(200, []);
    api().post('/repos/octo/app/issues/5/comments').reply(201, { id: 7 });
    api().patch('/repos/octo/app/issues/comments/7').reply(200, {});
    const status = createStatusComment(options);
    expect(await status.ensure()).toBe(7);
    expect(await status.ensure()).toBe(7);
    status.merge({ risk: 'LOW' });
    await status.publish();
  });

  it('never throws when GitHub refuses the edit', async () => {
    api().patch('/repos/octo/app/issues/comments/7').reply(500, {});
    const status = createStatusComment({ ...options, commentId: 7 });
    await expect(status.publish()).resolves.toBeUndefined();
  });
});
