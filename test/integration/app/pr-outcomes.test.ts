/**
 * PR outcomes (issue #36) through the app's HTTP endpoint, with signed deliveries against the
 * fake GitHub: the app's own PR merged or closed unmerged is recorded once under the run its
 * commits name, a revert (GitHub's revert PR, or git's `This reverts commit <sha>` pushed to the
 * default branch) marks it reverted once, a person's PR or a fork's is left alone, and `/metrics`
 * and the status page say so.
 */
import { Redis } from 'ioredis';
import { pullClosedPayload, pushPayload } from '../../helpers/webhooks.js';
import { REDIS_URL, startHarness, waitFor, type Harness } from './harness.js';
import { createRedisRunStore } from '../../../src/runs/redis-run-store.js';
import { newRun } from '../../../src/runs/run-record.js';
import type { RunJobData } from '../../../src/runs/types.js';

const PASSWORD = 'outcomes-password';
const OWNER = 'Codertocat';
const REPO = 'Hello-World';

let h: Harness;
let redis: Redis;
/** The commits of each head branch, as `GET /pulls/:n/commits` lists them. */
const branchCommits = new Map<string, { sha: string; message: string }[]>();

beforeAll(async () => {
  h = await startHarness({ workers: false, adminPassword: PASSWORD });
  h.github.setRepoReader({
    refSha: () => undefined,
    commits: (_base, head) => branchCommits.get(head) ?? [],
  });
  redis = new Redis(REDIS_URL);
});

afterAll(async () => {
  redis?.disconnect();
  await h?.close();
});

const sha = (n: number, digit = 'a'): string => `${n}`.padStart(4, '0') + digit.repeat(36);
const runIdOf = (pr: number): string => `run-${`${pr}`.padStart(16, '0')}`;

/** The app's PR `pr` on its branch, whose commit names run `runIdOf(pr)`. */
function botPull(pr: number, o: { repo?: string; author?: string } = {}) {
  const head = `autofix/fix/${pr}-the-bug`;
  const author = o.author ?? h.github.botLogin;
  if (branchCommits.has(head)) return { head, author };
  branchCommits.set(head, [
    { sha: sha(pr, 'c'), message: `fix(x): the bug\n\nFixes #1\n\nAutofix-Run: ${runIdOf(pr)}` },
  ]);
  h.github.addPull({
    number: pr,
    title: `fix(x): the bug ${pr}`,
    body: '',
    head,
    base: 'main',
    draft: false,
    author,
  });
  return { head, author };
}

function closed(
  pr: number,
  o: { merged: boolean; repo?: string; author?: string; headRepo?: string },
) {
  const { head, author } = botPull(pr, o);
  return pullClosedPayload({
    number: pr,
    author,
    headRef: head,
    merged: o.merged,
    mergeSha: sha(pr),
    ...(o.repo ? { repo: o.repo } : {}),
    ...(o.headRepo ? { headRepo: o.headRepo } : {}),
  });
}

async function counters(): Promise<Record<string, number>> {
  const text = await (await fetch(`${h.app.url}/metrics`)).text();
  const found = [...text.matchAll(/^autofix_pr_outcomes_total\{outcome="(\w+)"\} (\d+)$/gm)];
  return Object.fromEntries(found.map((m): [string, number] => [m[1]!, Number(m[2])]));
}

const outcomeOf = (pr: number) => redis.hgetall(`${h.prefix}:pr-outcome:${runIdOf(pr)}`);

async function waitForOutcome(pr: number, outcome: string) {
  return waitFor(
    async () => {
      const record = await outcomeOf(pr);
      return record.outcome === outcome ? record : undefined;
    },
    undefined,
    `PR #${pr} ${outcome}`,
  );
}

it('records a merged PR of the app under its run, once, and counts it', async () => {
  const before = await counters();
  const payload = closed(101, { merged: true });
  const first = await h.send('pull_request', payload);
  expect(first.status).toBe(200);
  expect(await waitForOutcome(101, 'merged')).toMatchObject({
    runId: runIdOf(101),
    repo: 'codertocat/hello-world',
    pr: '101',
    mergeSha: sha(101),
  });
  // The same delivery again, and the same body under a new delivery id.
  await h.send('pull_request', payload, first.deliveryId);
  await h.send('pull_request', payload);
  // A second event of the PR (reopened and closed again) decides nothing new.
  await h.send('pull_request', closed(101, { merged: false }));
  await h.admitted();
  const after = await counters();
  expect(after.merged).toBe((before.merged ?? 0) + 1);
  expect(after.closed).toBe(before.closed);
  expect((await outcomeOf(101)).outcome).toBe('merged');
});

it('records a PR of the app closed unmerged', async () => {
  const before = await counters();
  await h.send('pull_request', closed(102, { merged: false }));
  await waitForOutcome(102, 'closed');
  // The record is in Redis before the admission that wrote it counts it: wait for it to end.
  await h.admitted();
  expect((await counters()).closed).toBe((before.closed ?? 0) + 1);
});

it("marks a merged PR reverted by GitHub's revert PR, once, also when the revert commit lands", async () => {
  await h.send('pull_request', closed(103, { merged: true }));
  await waitForOutcome(103, 'merged');
  const before = await counters();
  const revert = pullClosedPayload({
    number: 104,
    author: 'maintainer',
    headRef: 'revert-103-autofix/fix/103-the-bug',
    title: 'Revert "fix(x): the bug 103"',
    body: `Reverts ${OWNER}/${REPO}#103`,
    merged: true,
    mergeSha: sha(104),
  });
  expect((await h.send('pull_request', revert)).status).toBe(200);
  expect(await waitForOutcome(103, 'reverted')).toMatchObject({ outcome: 'reverted' });
  await h.send('pull_request', revert);
  await h.send(
    'push',
    pushPayload({ messages: [`Revert "fix(x): the bug 103"\n\nThis reverts commit ${sha(103)}.`] }),
  );
  await h.admitted();
  expect((await counters()).reverted).toBe((before.reverted ?? 0) + 1);
});

it("marks a merged PR reverted by git's revert commit pushed to the default branch", async () => {
  await h.send('pull_request', closed(105, { merged: true }));
  await waitForOutcome(105, 'merged');
  const before = await counters();
  const message = `Revert "Merge pull request #105"\n\nThis reverts commit ${sha(105)}, reversing\nchanges made to ${'0'.repeat(40)}.`;
  // Not on the default branch: nothing.
  await h.send('push', pushPayload({ messages: [message], ref: 'refs/heads/topic' }));
  expect((await outcomeOf(105)).outcome).toBe('merged');
  expect((await h.send('push', pushPayload({ messages: [message] }))).status).toBe(200);
  expect(await waitForOutcome(105, 'reverted')).toMatchObject({ pr: '105' });
  await h.admitted();
  expect((await counters()).reverted).toBe((before.reverted ?? 0) + 1);
});

it("writes the outcome into the run's record: merged, then reverted", async () => {
  const runs = createRedisRunStore(redis, h.prefix);
  const data = {
    runId: runIdOf(110),
    repository: { fullName: `${OWNER}/${REPO}` },
    issue: { number: 1 },
    facts: { conversation: 1, existingBranch: 'replace-bot-only' },
    acceptedAt: Date.now(),
  } as unknown as RunJobData;
  await runs.create(newRun(data, 'fix', Date.now()));
  await h.send('pull_request', closed(110, { merged: true }));
  await waitFor(
    async () => (await runs.get(runIdOf(110)))?.prOutcome?.outcome === 'merged' || undefined,
  );
  await h.send('push', pushPayload({ messages: [`Revert\n\nThis reverts commit ${sha(110)}.`] }));
  const reverted = await waitFor(async () => {
    const run = await runs.get(runIdOf(110));
    return run?.prOutcome?.outcome === 'reverted' ? run : undefined;
  });
  expect(reverted.prOutcome!.at).toBeGreaterThan(0);
});

it("leaves a person's PR, a fork's PR and another bot's PR alone", async () => {
  const before = await counters();
  await h.send('pull_request', closed(106, { merged: true, author: 'maintainer' }));
  await h.send('pull_request', closed(107, { merged: true, headRepo: `someone/${REPO}` }));
  await h.send('pull_request', closed(108, { merged: true, author: 'other-app[bot]' }));
  await h.admitted();
  expect(await counters()).toEqual(before);
  for (const pr of [106, 107, 108]) expect(await outcomeOf(pr)).toEqual({});
  // The other bot's PR reached admission and was refused there; the others never got that far.
  expect((await h.triggers()).map((j) => j.data.issue.number)).toContain(108);
  expect((await h.triggers()).map((j) => j.data.issue.number)).not.toContain(106);
});

it('shows the counter on /metrics and the outcomes per repository on the status page', async () => {
  const repo = 'Status-Repo';
  await h.send('pull_request', closed(201, { merged: true, repo }));
  await h.send('pull_request', closed(202, { merged: true, repo }));
  await h.send('pull_request', closed(203, { merged: false, repo }));
  await Promise.all([
    waitForOutcome(201, 'merged'),
    waitForOutcome(202, 'merged'),
    waitForOutcome(203, 'closed'),
  ]);
  await h.send(
    'pull_request',
    pullClosedPayload({
      repo,
      number: 204,
      author: 'maintainer',
      headRef: 'revert-202',
      body: `Reverts ${OWNER}/${repo}#202`,
      merged: true,
    }),
  );
  await waitForOutcome(202, 'reverted');
  const metrics = await (await fetch(`${h.app.url}/metrics`)).text();
  expect(metrics).toMatch(/^# TYPE autofix_pr_outcomes_total counter$/m);
  expect(metrics).toMatch(/^autofix_pr_outcomes_total\{outcome="reverted"\} [1-9]/m);
  const auth = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
  const page = await (await fetch(`${h.app.url}/`, { headers: { authorization: auth } })).text();
  expect(page).toContain('PR outcomes, last 30 days');
  const table = /<table id="outcomes">([\s\S]*?)<\/table>/.exec(page)?.[1] ?? '';
  const rows = [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) =>
    [...m[1]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.trim()),
  );
  expect(rows).toContainEqual(['codertocat/status-repo', '1', '1', '1', '33 %']);
});
