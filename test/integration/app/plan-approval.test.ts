/**
 * Plan approval (issue #36): with `plan_approval: required` (or `auto` over a threshold) a run
 * posts its plan and waits after the plan stage; `/autofix approve` by a maintainer goes on with
 * that plan, `/autofix plan <changes>` plans again with their words and waits again; the same
 * from a read-only user does nothing at all.
 */
import { runFactsFor } from '../../../src/hosts/app/stages/run-facts.js';
import type { LlmClient } from '../../../src/llm/create-llm-client.js';
import type { ChatRequest, ChatResult } from '../../../src/llm/types.js';
import { createUsageTracker } from '../../../src/llm/usage-tracker.js';
import { runPlanner } from '../../../src/pipeline/plan/run-planner.js';
import { silentLogger } from '../../../src/logger.js';
import type { Risk } from '../../../src/contracts.js';
import { WAIT_MS } from '../../helpers/deadlines.js';
import type { StageFn } from '../../helpers/test-stages.js';
import { commentPayload, labeledPayload } from '../../helpers/webhooks.js';
import { startHarness, waitFor, type Harness } from './harness.js';

const CONFIG = 'plan_approval: required\n';

function planComments(h: Harness, issue: number): string[] {
  return [...h.github.comments.values()]
    .filter((c) => c.issueNumber === issue && c.body.startsWith('<!-- autofix-plan:'))
    .map((c) => c.body);
}

function statusOf(h: Harness, issue: number): string | undefined {
  return [...h.github.comments.values()].find(
    (c) => c.issueNumber === issue && c.body.includes('autofix-run:'),
  )?.body;
}

const called = (h: Harness, stage: string): number =>
  h.stages.calls.filter((c) => c.stage === stage).length;

/** Waits for the run on `issue` to be parked for approval, its `round`-th plan comment posted. */
async function parkedForApproval(h: Harness, issue: number, round = 1): Promise<string> {
  await waitFor(() => planComments(h, issue).length >= round || undefined, WAIT_MS, 'the plan');
  return waitFor(async () => {
    const runs = await h.runsAt('triage');
    for (const run of runs) {
      const record = await h.run(run.runId);
      if (record?.issue.number === issue && record.parked?.reason === 'plan-approval') {
        return record.runId;
      }
    }
    return undefined;
  });
}

/** The real planner behind a model that records what it was sent. */
function plannerWithRecordedPrompts(prompts: string[]): StageFn<'plan'> {
  const llm: LlmClient = {
    endpoint: 'stub',
    usage: createUsageTracker(),
    chat: (request: ChatRequest): Promise<ChatResult> => {
      prompts.push(request.messages.map((m) => m.content).join('\n'));
      const plan = {
        branch_name: 'fix/41-readme',
        commit_type: 'fix',
        scope: 'readme',
        commit_subject: 'correct the typo',
        plan_steps: [{ id: '1', description: 'Fix the typo.' }],
        file_changes: [{ path: 'README.md', operation: 'MODIFY' }],
        validation_commands: [],
      };
      return Promise.resolve({
        text: JSON.stringify(plan),
        refusal: null,
        model: 'stub',
        finishReason: 'stop',
        truncated: null,
        toolCalls: [],
        usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2, cost: 0, priced: false },
        raw: {},
        attempts: 1,
        durationMs: 1,
        index: prompts.length,
      });
    },
  };
  return async (job) => {
    const facts = runFactsFor(job);
    const output = await runPlanner(
      {
        issue: facts.issue,
        triage: job.outputs.triage!,
        context: { repoMap: 'README.md', codeContext: '', tokens: 0, ranked: [], next: [] },
        config: job.config,
        model: 'stub',
        exists: () => true,
        checkPaths: () => Promise.resolve(),
        ...(facts.planNotes ? { planNotes: facts.planNotes } : {}),
        ...(facts.planNotes && job.outputs.plan ? { previousPlan: job.outputs.plan } : {}),
      },
      { llm, log: silentLogger },
    );
    return { kind: 'continue', output };
  };
}

describe('plan approval', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('waits for approval after the plan; a reader is ignored, a maintainer goes on with that plan', async () => {
    h = await startHarness({ worker: { statusCreateAfterMs: 0, statusDebounceMs: 0 } });
    h.github.setFile('.github/autofix.yml', CONFIG);
    h.github.setPermission('reader', 'read');
    await h.send('issues', labeledPayload({ issueNumber: 41 }));
    const runId = await parkedForApproval(h, 41);
    const plan = planComments(h, 41)[0]!;
    expect(plan).toContain('| `README.md` | MODIFY |');
    expect(plan).toContain('`/autofix approve`');
    expect(plan).toContain('`/autofix plan <changes>`');
    expect((await h.run(runId))!.parked).toMatchObject({ resumeAt: 'reproduce' });
    const said = await waitFor(() => statusOf(h!, 41)?.includes('approval') && statusOf(h!, 41));
    expect(said).toContain('Waiting for approval of the plan');
    expect(called(h, 'reproduce')).toBe(0);
    expect(called(h, 'code')).toBe(0);

    const posts = (): number => h!.github.calls('POST', /\/issues\/41\/comments$/).length;
    const before = posts();
    await h.send(
      'issue_comment',
      commentPayload({ issueNumber: 41, comment: '/autofix approve', sender: 'reader' }),
    );
    await h.admitted();
    expect((await h.run(runId))!.parked).toBeDefined();
    expect(posts()).toBe(before);
    expect(h.github.calls('POST', /\/comments\/\d+\/reactions$/)).toHaveLength(0);
    expect(called(h, 'code')).toBe(0);

    // `continue` does not approve a plan: the reply says what the run waits for.
    await h.send(
      'issue_comment',
      commentPayload({ issueNumber: 41, comment: '/autofix continue' }),
    );
    await h.admitted();
    expect((await h.run(runId))!.parked).toBeDefined();
    const replies = h.github.calls('POST', /\/issues\/41\/comments$/).slice(before);
    expect(JSON.stringify(replies.map((r) => r.body))).toContain(
      'waits for its plan to be approved: answer `/autofix approve`',
    );
    expect(called(h, 'code')).toBe(0);

    const approve = commentPayload({ issueNumber: 41, comment: '/autofix approve' });
    const first = await h.send('issue_comment', approve);
    await h.send('issue_comment', approve, first.deliveryId);
    await waitFor(() => h!.github.pulls[0], WAIT_MS, 'the pull request');
    const done = await waitFor(async () => {
      const record = await h!.run(runId);
      return record?.ending ? record : undefined;
    });
    expect(done.ending).toMatchObject({ outcome: 'finished' });
    expect(done.resumes).toEqual([
      expect.objectContaining({ by: 'maintainer', reason: 'plan-approval', stage: 'reproduce' }),
    ]);
    expect(h.stages.calls.map((c) => c.stage)).toEqual([
      'triage',
      'plan',
      'reproduce',
      'code',
      'pr',
    ]);
    expect(planComments(h, 41)).toHaveLength(1);
  });

  it("plans again with the maintainer's words on /autofix plan, and waits again", async () => {
    const prompts: string[] = [];
    h = await startHarness({
      overrides: { plan: plannerWithRecordedPrompts(prompts) },
      worker: { statusCreateAfterMs: 0, statusDebounceMs: 0 },
    });
    h.github.setFile('.github/autofix.yml', CONFIG);
    await h.send('issues', labeledPayload({ issueNumber: 42 }));
    const runId = await parkedForApproval(h, 42);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).not.toContain('use a map instead');

    await h.send(
      'issue_comment',
      commentPayload({ issueNumber: 42, comment: '/autofix plan use a map instead' }),
    );
    await parkedForApproval(h, 42, 2);
    const record = await waitFor(async () => {
      const r = await h!.run(runId);
      return r?.parked && r.resumes.length === 1 ? r : undefined;
    });
    expect(record.planNotes).toEqual(['use a map instead']);
    expect(record.parked).toMatchObject({ reason: 'plan-approval', resumeAt: 'reproduce' });
    expect(record.resumes[0]).toMatchObject({ stage: 'plan', by: 'maintainer' });
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toContain('use a map instead');
    expect(prompts[1]).toContain('The earlier plan:');
    expect(called(h, 'plan')).toBe(2);
    expect(called(h, 'code')).toBe(0);
  });

  it.each<[Risk, boolean]>([
    ['HIGH', true],
    ['LOW', false],
  ])('with auto, a %s-risk triage waits: %s', async (risk, waits) => {
    const triage: StageFn<'triage'> = () =>
      Promise.resolve({
        kind: 'continue',
        output: { risk, classification: 'fix', affected_files: ['README.md'], summary: 'typo' },
      });
    h = await startHarness({ overrides: { triage } });
    h.github.setFile(
      '.github/autofix.yml',
      'risk_threshold: HIGH\nplan_approval: auto\nplan_approval_auto: { risk: HIGH, files: 5 }\n',
    );
    await h.send('issues', labeledPayload({ issueNumber: 43 }));
    if (waits) {
      await parkedForApproval(h, 43);
      expect(called(h, 'reproduce')).toBe(0);
    } else {
      await waitFor(() => h!.github.pulls[0], WAIT_MS, 'the pull request');
      expect(planComments(h, 43)).toEqual([]);
    }
  });

  it('answers approve on an issue with no plan waiting, once, and starts no run', async () => {
    h = await startHarness();
    h.github.setFile('.github/autofix.yml', CONFIG);
    const approve = commentPayload({ issueNumber: 44, comment: '/autofix approve' });
    const first = await h.send('issue_comment', approve);
    await h.send('issue_comment', approve, first.deliveryId);
    await h.send(
      'issue_comment',
      commentPayload({ issueNumber: 44, comment: '/autofix plan use a map instead' }),
    );
    await h.admitted();
    const replies = h.github.calls('POST', /\/issues\/44\/comments$/);
    expect(replies).toHaveLength(2);
    expect(JSON.stringify(replies[0]!.body)).toContain('no Autofix plan waiting for approval');
    expect(await h.runsAt('triage')).toEqual([]);
  });
});
