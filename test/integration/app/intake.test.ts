import { randomUUID } from 'node:crypto';
import { commentPayload, deliver, labeledPayload } from '../../helpers/webhooks.js';
import { SECRET, startHarness, waitFor, type Harness } from './harness.js';
import { startOwnRedis, type OwnRedis } from './own-redis.js';
import { WAIT_MS } from '../../helpers/deadlines.js';

const bodyOf = (req: { body: unknown }): string => (req.body as { body: string }).body;

describe('webhook intake', () => {
  let h: Harness | undefined;
  let redis: OwnRedis | undefined;
  afterEach(async () => {
    await h?.close();
    await redis?.stop();
    h = undefined;
    redis = undefined;
  });

  it('starts no run for a sender without write permission', async () => {
    h = await startHarness({ workers: false });
    h.github.setPermission('reader', 'triage');
    const res = await h.send('issues', labeledPayload({ sender: 'reader' }));
    expect(res.status).toBe(200);
    await h.admitted();
    expect(await h.jobs('triage')).toHaveLength(0);
    expect(h.github.calls('GET', /\/collaborators\/reader\/permission$/)).toHaveLength(1);
    expect(h.github.calls('POST', /\/comments$/)).toHaveLength(0);
  });

  it('answers before asking GitHub anything, and retries a failing config read and permission check in the job', async () => {
    h = await startHarness({ workers: false });
    h.github.failNext('GET', /\/contents\//, 502, 2);
    h.github.failNext('GET', /\/collaborators\/maintainer\/permission$/, 500);
    const res = await h.send('issues', labeledPayload({ issueNumber: 3 }));
    expect(res.status).toBe(200);
    expect(res.ms).toBeLessThan(1000);
    const [triage] = await waitFor(async () => {
      const runs = await h!.runsAt('triage');
      return runs.length > 0 ? runs : undefined;
    });
    expect(triage!.issue.number).toBe(3);
    const [trigger] = await h.triggers();
    expect(trigger!.attemptsMade).toBeGreaterThanOrEqual(2);
    expect(await trigger!.getState()).toBe('completed');
  });

  it('ignores bots, this app included, without asking GitHub anything or storing a trigger', async () => {
    h = await startHarness({ workers: false });
    await h.send('issues', labeledPayload({ sender: 'autofix-test[bot]', senderType: 'Bot' }));
    await h.send(
      'issue_comment',
      commentPayload({ comment: '/autofix', sender: 'dependabot[bot]', senderType: 'Bot' }),
    );
    expect(await h.triggers()).toHaveLength(0);
    expect(h.github.requests).toHaveLength(0);
  });

  it('answers a bad signature with 401 and queues nothing', async () => {
    h = await startHarness({ workers: false });
    const res = await deliver(h.app.url, {
      event: 'issues',
      payload: labeledPayload(),
      secret: SECRET,
      signature: `sha256=${'0'.repeat(64)}`,
    });
    expect(res.status).toBe(401);
    const wrongSecret = await deliver(h.app.url, {
      event: 'issues',
      payload: labeledPayload(),
      secret: 'nope',
    });
    expect(wrongSecret.status).toBe(401);
    expect(await h.triggers()).toHaveLength(0);
    expect(h.github.requests).toHaveLength(0);
  });

  it('ignores other labels and comments that are not the command; once the config is known, without storing them', async () => {
    h = await startHarness({ workers: false });
    await h.send('issues', labeledPayload({ label: 'bug' }));
    await h.send('issue_comment', commentPayload({ comment: '/autofixed it myself' }));
    await h.send('issue_comment', commentPayload({ comment: 'thanks!' }));
    await h.admitted();
    expect(await h.jobs('triage')).toHaveLength(0);
    // The conversation comment never became a trigger; the other two did (config unknown yet).
    expect(await h.triggers()).toHaveLength(2);
    await h.send('issues', labeledPayload({ label: 'question' }));
    await h.send('issue_comment', commentPayload({ comment: '/autofixes' }));
    expect(await h.triggers()).toHaveLength(2);
  });

  it('uses the trigger label and command from .github/autofix.yml', async () => {
    h = await startHarness({ workers: false });
    h.github.setFile('.github/autofix.yml', 'trigger_label: bot-fix\ncommand: /fixit\n');
    await h.send('issues', labeledPayload({ label: 'autofix', issueNumber: 1 }));
    await h.send('issues', labeledPayload({ label: 'bot-fix', issueNumber: 2 }));
    await h.send('issue_comment', commentPayload({ comment: '/fixit now', issueNumber: 3 }));
    await h.admitted();
    const runs = await h.runsAt('triage');
    expect(runs.map((r) => r.issue.number).sort()).toEqual([2, 3]);
    expect(runs[0]!.config.trigger_label).toBe('bot-fix');
  });

  it('comments once with each bad key of an invalid config and starts no run', async () => {
    h = await startHarness({ workers: false });
    h.github.setFile('.github/autofix.yml', 'risk_threshold: EXTREME\ndraft_pr: true\n');
    const res = await h.send('issues', labeledPayload({ issueNumber: 5 }));
    expect(res.status).toBe(200);
    await h.admitted();
    expect(await h.jobs('triage')).toHaveLength(0);
    const [reply] = h.github.calls('POST', /\/issues\/5\/comments$/);
    const body = bodyOf(reply!);
    expect(body).toContain('`risk_threshold`');
    expect(body).toContain('`draft_pr`: unknown key');
    expect(body).toContain('/autofix');
  });

  it('treats a redelivery of the same delivery as a no-op', async () => {
    h = await startHarness({ workers: false });
    const id = randomUUID();
    const payload = labeledPayload();
    const first = await h.send('issues', payload, id);
    const again = await h.send('issues', payload, id);
    expect([first.status, again.status]).toEqual([200, 200]);
    await h.admitted();
    const runs = await h.runsAt('triage');
    expect(runs).toHaveLength(1);
    expect(runs[0]!.deliveryId).toBe(id);
  });

  it('does not start a second run for the same body re-sent with a new delivery id after the run ended', async () => {
    h = await startHarness();
    const payload = labeledPayload({ issueNumber: 6 });
    await h.send('issues', payload);
    await waitFor(() => h!.github.pulls.find((p) => p.head.includes('/6-')), WAIT_MS, 'the PR');
    await waitFor(async () => {
      const pr = await h!.jobs('pr');
      return pr.length === 1 && (await pr[0]!.getState()) === 'completed' ? true : undefined;
    });
    const replay = await h.send('issues', payload); // same body, new X-GitHub-Delivery
    expect(replay.status).toBe(200);
    const comment = commentPayload({ issueNumber: 7, comment: '/autofix' });
    await h.send('issue_comment', comment);
    await h.send('issue_comment', comment);
    await h.admitted();
    expect((await h.runsAt('triage')).map((r) => r.issue.number).sort()).toEqual([6, 7]);
    expect(await h.triggers()).toHaveLength(2);
    // A new label event on issue 6 is a new trigger: the issue has its PR now, so it says so.
    await h.send('issues', labeledPayload({ issueNumber: 6 }));
    await h.admitted();
    expect(await h.jobs('triage')).toHaveLength(2);
    const [reply] = h.github
      .calls('POST', /\/issues\/6\/comments$/)
      .filter((r) => bodyOf(r).includes('already has an open Autofix pull request'));
    expect(reply).toBeDefined();
  });

  it('runs once for a label and a comment arriving together, and says so once', async () => {
    h = await startHarness({ workers: false });
    const results = await Promise.all([
      h.send('issues', labeledPayload({ issueNumber: 9 })),
      h.send('issue_comment', commentPayload({ issueNumber: 9, comment: '/autofix' })),
      h.send('issue_comment', commentPayload({ issueNumber: 9, comment: '/autofix again' })),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    await h.admitted();
    expect(await h.jobs('triage')).toHaveLength(1);
    const replies = h.github.calls('POST', /\/issues\/9\/comments$/);
    expect(replies).toHaveLength(1);
    expect(bodyOf(replies[0]!)).toContain('already working on this');
  });

  it('points a trigger on an issue with an open Autofix PR to that PR; `fresh` starts over on its branch', async () => {
    h = await startHarness({ workers: false });
    const pull = h.github.addPull({
      title: 'fix(app): the old attempt',
      body: '',
      head: 'autofix/fix/12-old-attempt',
      base: 'main',
      draft: false,
      author: h.github.botLogin,
    });
    // A human's PR for the same issue number does not count.
    h.github.addPull({
      title: 'my fix',
      body: '',
      head: 'autofix/fix/12-mine',
      base: 'main',
      draft: false,
      author: 'someone',
    });
    await h.send('issues', labeledPayload({ issueNumber: 12 }));
    await h.send('issue_comment', commentPayload({ issueNumber: 12, comment: '/autofix please' }));
    await h.admitted();
    expect(await h.jobs('triage')).toHaveLength(0);
    const replies = h.github.calls('POST', /\/issues\/12\/comments$/).map(bodyOf);
    expect(replies).toHaveLength(2);
    for (const reply of replies) {
      expect(reply).toContain(`open Autofix pull request: #${pull.number}`);
      expect(reply).toContain('`/autofix fresh`');
    }

    await h.send(
      'issue_comment',
      commentPayload({ issueNumber: 12, comment: '/autofix fresh use the cache' }),
    );
    await h.admitted();
    const [run] = await h.runsAt('triage');
    expect(run!.trigger).toMatchObject({
      kind: 'issue-comment',
      fresh: true,
      replaceBranch: 'autofix/fix/12-old-attempt',
      instructions: 'use the cache',
    });
  });

  it('answers 503 within the bound when Redis stops answering, and the redelivery then runs', async () => {
    redis = await startOwnRedis();
    h = await startHarness({ workers: false, redisUrl: redis.url, intakeTimeoutMs: 500 });
    const id = randomUUID();
    const payload = labeledPayload({ issueNumber: 2 });
    redis.child.kill('SIGSTOP');
    const slow = await h.send('issues', payload, id);
    redis.child.kill('SIGCONT');
    expect(slow.status).toBe(503);
    expect(slow.ms).toBeLessThan(2000);
    // The held enqueue goes through once Redis runs again: the redelivery then finds its job.
    await waitFor(
      async () => (await h!.triggers()).length === 1 || undefined,
      WAIT_MS,
      'the held enqueue',
    );
    const again = await h.send('issues', payload, id);
    expect(again.status).toBe(200);
    await waitFor(async () => ((await h!.jobs('triage')).length === 1 ? true : undefined));
  });
});
