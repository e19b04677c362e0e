import { randomUUID } from 'node:crypto';
import { commentPayload, deliver, labeledPayload } from '../../helpers/webhooks.js';
import { SECRET, startHarness, waitFor, type Harness } from './harness.js';
import { startOwnRedis, type OwnRedis } from './own-redis.js';

const settle = (ms = 300): Promise<void> => new Promise((r) => setTimeout(r, ms));

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
    expect(await h.jobs('triage')).toHaveLength(0);
    expect(h.github.calls('GET', /\/collaborators\/reader\/permission$/)).toHaveLength(1);
    expect(h.github.calls('POST', /\/comments$/)).toHaveLength(0);
  });

  it('starts no run when the permission check fails', async () => {
    h = await startHarness({ workers: false });
    h.github.failNext('GET', /\/collaborators\/maintainer\/permission$/, 500);
    const res = await h.send('issues', labeledPayload());
    expect(res.status).toBe(200);
    expect(await h.jobs('triage')).toHaveLength(0);
  });

  it('ignores bots, this app included, without asking GitHub anything', async () => {
    h = await startHarness({ workers: false });
    await h.send('issues', labeledPayload({ sender: 'autofix-test[bot]', senderType: 'Bot' }));
    await h.send(
      'issue_comment',
      commentPayload({ comment: '/autofix', sender: 'dependabot[bot]', senderType: 'Bot' }),
    );
    expect(await h.jobs('triage')).toHaveLength(0);
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
    expect(await h.jobs('triage')).toHaveLength(0);
    expect(h.github.requests).toHaveLength(0);
  });

  it('ignores other labels and comments that are not the command', async () => {
    h = await startHarness({ workers: false });
    await h.send('issues', labeledPayload({ label: 'bug' }));
    await h.send('issue_comment', commentPayload({ comment: '/autofixed it myself' }));
    await h.send('issue_comment', commentPayload({ comment: 'thanks!' }));
    expect(await h.jobs('triage')).toHaveLength(0);
  });

  it('uses the trigger label and command from .github/autofix.yml', async () => {
    h = await startHarness({ workers: false });
    h.github.setFile('.github/autofix.yml', 'trigger_label: bot-fix\ncommand: /fixit\n');
    await h.send('issues', labeledPayload({ label: 'autofix', issueNumber: 1 }));
    expect(await h.jobs('triage')).toHaveLength(0);
    await h.send('issues', labeledPayload({ label: 'bot-fix', issueNumber: 2 }));
    await h.send('issue_comment', commentPayload({ comment: '/fixit now', issueNumber: 3 }));
    const jobs = await h.jobs('triage');
    expect(jobs.map((j) => j.data.issue.number).sort()).toEqual([2, 3]);
    expect(jobs[0]!.data.config.trigger_label).toBe('bot-fix');
  });

  it('comments with each bad key of an invalid config and starts no run', async () => {
    h = await startHarness({ workers: false });
    h.github.setFile('.github/autofix.yml', 'risk_threshold: EXTREME\ndraft_pr: true\n');
    const res = await h.send('issues', labeledPayload({ issueNumber: 5 }));
    expect(res.status).toBe(200);
    expect(await h.jobs('triage')).toHaveLength(0);
    const [reply] = h.github.calls('POST', /\/issues\/5\/comments$/);
    const body = (reply!.body as { body: string }).body;
    expect(body).toContain('`risk_threshold`');
    expect(body).toContain('`draft_pr`: unknown key');
    expect(body).toContain('/autofix');
  });

  it('treats a redelivery of the same delivery as a no-op', async () => {
    h = await startHarness({ workers: false });
    const id = randomUUID();
    const first = await h.send('issues', labeledPayload(), id);
    const again = await h.send('issues', labeledPayload(), id);
    expect([first.status, again.status]).toEqual([200, 200]);
    const jobs = await h.jobs('triage');
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.data.deliveryId).toBe(id);
  });

  it('runs once for a label and a comment arriving together, and says so once', async () => {
    h = await startHarness({ workers: false });
    const results = await Promise.all([
      h.send('issues', labeledPayload({ issueNumber: 9 })),
      h.send('issue_comment', commentPayload({ issueNumber: 9, comment: '/autofix' })),
      h.send('issue_comment', commentPayload({ issueNumber: 9, comment: '/autofix again' })),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await h.jobs('triage')).toHaveLength(1);
    const replies = h.github.calls('POST', /\/issues\/9\/comments$/);
    expect(replies).toHaveLength(1);
    expect((replies[0]!.body as { body: string }).body).toContain('already working on this');
  });

  it('answers 503 within the bound when Redis stops answering, and the redelivery then runs', async () => {
    redis = await startOwnRedis();
    h = await startHarness({ workers: false, redisUrl: redis.url, intakeTimeoutMs: 500 });
    await h.send('issues', labeledPayload({ issueNumber: 1 })); // warm caches: config, permission
    const id = randomUUID();
    redis.child.kill('SIGSTOP');
    const slow = await h.send('issues', labeledPayload({ issueNumber: 2 }), id);
    redis.child.kill('SIGCONT');
    expect(slow.status).toBe(503);
    expect(slow.ms).toBeLessThan(2000);
    await settle(); // the late claim is undone when it lands
    const again = await h.send('issues', labeledPayload({ issueNumber: 2 }), id);
    expect(again.status).toBe(200);
    await waitFor(async () => ((await h!.jobs('triage')).length === 2 ? true : undefined));
  });
});
