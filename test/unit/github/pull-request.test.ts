import type nock from 'nock';
import { createOrUpdatePullRequest, shouldOpenAsDraft } from '../../../src/github/pull-request.js';
import { silentLogger } from '../../../src/logger.js';
import { testClient } from '../../helpers/github-client.js';
import { useHttpMock } from '../../helpers/http-mock.js';

const http = useHttpMock();

const repo = { owner: 'octo', repo: 'app' };
const api = (): nock.Scope => http.api();
const spec = {
  branch: 'autofix/fix/7-typo',
  base: 'main',
  title: 'fix(readme): correct a typo in the intro',
  body: 'Fixes #7',
  draft: false,
  labels: ['autofix'],
  reviewer: 'maintainer',
};

describe('createOrUpdatePullRequest', () => {
  it('opens a PR for a branch without one, labels it and asks the trigger sender to review', async () => {
    api()
      .get('/repos/octo/app/pulls')
      .query({ head: 'octo:autofix/fix/7-typo', state: 'open', per_page: 1 })
      .reply(200, []);
    api()
      .post('/repos/octo/app/pulls', {
        head: spec.branch,
        base: 'main',
        title: spec.title,
        body: 'Fixes #7',
        draft: false,
      })
      .reply(201, { number: 12, html_url: 'https://github.com/octo/app/pull/12', draft: false });
    api()
      .post('/repos/octo/app/issues/12/labels', { labels: ['autofix'] })
      .reply(200, []);
    api()
      .post('/repos/octo/app/pulls/12/requested_reviewers', { reviewers: ['maintainer'] })
      .reply(201, {});
    const pr = await createOrUpdatePullRequest(testClient(), repo, spec, silentLogger);
    expect(pr).toEqual({
      number: 12,
      url: 'https://github.com/octo/app/pull/12',
      created: true,
      draft: false,
    });
  });

  it('updates the open PR of the branch instead of opening a second one', async () => {
    api()
      .get('/repos/octo/app/pulls')
      .query(true)
      .reply(200, [{ number: 12 }]);
    api()
      .patch('/repos/octo/app/pulls/12', { title: spec.title, body: 'Fixes #7' })
      .reply(200, { number: 12, html_url: 'https://github.com/octo/app/pull/12', draft: true });
    api().post('/repos/octo/app/issues/12/labels').reply(200, []);
    const pr = await createOrUpdatePullRequest(testClient(), repo, spec, silentLogger);
    expect(pr).toMatchObject({ number: 12, created: false, draft: true });
  });

  it('still returns the PR when GitHub refuses the review request', async () => {
    api().get('/repos/octo/app/pulls').query(true).reply(200, []);
    api().post('/repos/octo/app/pulls').reply(201, { number: 3, html_url: 'u', draft: true });
    api().post('/repos/octo/app/issues/3/labels').reply(200, []);
    api()
      .post('/repos/octo/app/pulls/3/requested_reviewers')
      .reply(422, { message: 'not a collaborator' });
    const pr = await createOrUpdatePullRequest(
      testClient(),
      repo,
      { ...spec, draft: true },
      silentLogger,
    );
    expect(pr.number).toBe(3);
  });
});

describe('shouldOpenAsDraft', () => {
  it('drafts when the config says so or the risk is MEDIUM or higher', () => {
    expect(shouldOpenAsDraft(false, 'LOW')).toBe(false);
    expect(shouldOpenAsDraft(true, 'LOW')).toBe(true);
    expect(shouldOpenAsDraft(false, 'MEDIUM')).toBe(true);
    expect(shouldOpenAsDraft(false, 'HIGH')).toBe(true);
    expect(shouldOpenAsDraft(false, undefined)).toBe(false);
  });
});
