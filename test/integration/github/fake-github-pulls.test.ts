/**
 * The fake GitHub's pull requests answer as GitHub's REST API documents them ("pull-request",
 * "pull-request-simple"): `head` and `base` carry their repositories, a fork's PR names the fork,
 * and `head=owner:branch` lists only the PRs from that owner's branch.
 */
import { startFakeGitHub, type FakeGitHub } from '../../helpers/fake-github.js';
import { testClient } from '../../helpers/github-client.js';
import type { GitHubClient } from '../../../src/github/types.js';

const TOKEN = 'ghs_testtoken000000000000000000000';
const repo = { owner: 'octo', repo: 'app' };

describe('the fake GitHub’s pull requests', () => {
  let github: FakeGitHub;
  let octokit: GitHubClient;
  beforeEach(async () => {
    github = await startFakeGitHub();
    github.tokens.add(TOKEN);
    octokit = testClient(github.apiUrl);
  });
  afterEach(() => github.close());

  it('carries head.repo and base.repo: the repository itself for its own branch', async () => {
    const { data } = await octokit.rest.pulls.create({
      ...repo,
      head: 'autofix/fix/3-x',
      base: 'main',
      title: 't',
      body: 'b',
    });
    const { data: read } = await octokit.rest.pulls.get({ ...repo, pull_number: data.number });
    for (const pull of [data, read]) {
      expect(pull.user?.login).toBe(github.botLogin);
      expect(pull.head).toMatchObject({
        ref: 'autofix/fix/3-x',
        label: 'octo:autofix/fix/3-x',
        repo: { full_name: 'octo/app', name: 'app', owner: { login: 'octo' }, fork: false },
      });
      expect(pull.base).toMatchObject({
        ref: 'main',
        repo: { full_name: 'octo/app', fork: false },
      });
      expect(pull.head.repo?.id).toBe(pull.base.repo.id);
    }
  });

  it('opens a fork’s PR from `owner:branch`, whose head.repo is the fork', async () => {
    const { data } = await octokit.rest.pulls.create({
      ...repo,
      head: 'someone:autofix/fix/3-x',
      base: 'main',
      title: 't',
    });
    expect(data.head).toMatchObject({
      ref: 'autofix/fix/3-x',
      label: 'someone:autofix/fix/3-x',
      repo: { full_name: 'someone/app', owner: { login: 'someone' }, fork: true },
    });
    expect(data.base.repo.full_name).toBe('octo/app');
    expect(data.head.repo?.id).not.toBe(data.base.repo.id);
    expect(github.pulls.at(-1)).toMatchObject({ head: 'autofix/fix/3-x', headRepo: 'someone/app' });
  });

  it('lists by `head=owner:branch` only that owner’s PR, not a fork’s of the same branch name', async () => {
    const fork = github.addPull({
      title: 'fork',
      body: '',
      head: 'autofix/fix/3-x',
      headRepo: 'someone/app',
      base: 'main',
      draft: false,
      author: 'someone',
    });
    const own = github.addPull({
      title: 'own',
      body: '',
      head: 'autofix/fix/3-x',
      base: 'main',
      draft: false,
      author: github.botLogin,
    });
    const numbers = async (head: string) =>
      (await octokit.rest.pulls.list({ ...repo, head, state: 'open' })).data.map((p) => p.number);
    expect(await numbers('octo:autofix/fix/3-x')).toEqual([own.number]);
    expect(await numbers('someone:autofix/fix/3-x')).toEqual([fork.number]);
    const { data: all } = await octokit.rest.pulls.list({ ...repo, state: 'open' });
    expect(all.map((p) => [p.number, p.head.repo?.full_name])).toEqual([
      [fork.number, 'someone/app'],
      [own.number, 'octo/app'],
    ]);
  });
});
