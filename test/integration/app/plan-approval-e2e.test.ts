/**
 * Plan approval through the real pipeline (issue #36): with `plan_approval: required` the run
 * posts the model's plan and asks the model nothing more; `/autofix plan <changes>` sends the
 * planner those words (and the earlier plan) and waits again; `/autofix approve` goes on to the
 * code and the PR without planning again.
 */
import { FIX_DIFF, PLAN, PR_SUMMARY, TRIAGE } from '../../helpers/sample-repo.js';
import { commentPayload, generateAppKeyPair, labeledPayload } from '../../helpers/webhooks.js';
import { startPipelineEnv, waitFor, type PipelineEnv } from './harness.js';
import { underLoad } from '../../helpers/deadlines.js';
import { jest } from '@jest/globals';

// A hang guard for every test of this file (test/helpers/deadlines.ts).
jest.setTimeout(underLoad(120_000));

const keys = generateAppKeyPair();
const CONFIG = 'reproduce: off\nvalidate:\n  - node test.js\nplan_approval: required\n';

let env: PipelineEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** Which agent a recorded chat request asked (its system prompt names it). */
const agentOf = (system: string): string => /You are the ([a-z-]+) agent/.exec(system)?.[1] ?? '?';

it('asks the model nothing after the plan until approved, and re-plans with the maintainer’s words', async () => {
  env = await startPipelineEnv({ keys, name: 'plan-approval-e2e', config: CONFIG });
  const { github, llm, bare, send } = env;
  const plans = (): string[] =>
    [...github.comments.values()]
      .filter((c) => c.issueNumber === 9 && c.body.startsWith('<!-- autofix-plan:'))
      .map((c) => c.body);
  const agents = (): string[] =>
    llm.chatRequests().map((r) => agentOf(r.body.messages[0]?.content ?? ''));
  const issue = { issueNumber: 9, title: 'add() returns the wrong result', cloneUrl: bare };

  llm.enqueue(JSON.stringify(TRIAGE), JSON.stringify(PLAN));
  await send('issues', labeledPayload(issue));
  await waitFor(() => plans().length === 1 || undefined, underLoad(60_000), 'the plan comment');
  expect(plans()[0]).toContain('Make add() return the sum of its arguments');
  expect(plans()[0]).toContain('| `src/math.js` | MODIFY |');
  await waitFor(
    () => [...github.comments.values()].find((c) => c.body.includes('Waiting for approval')),
    underLoad(30_000),
    'the waiting status',
  );
  expect(agents()).toEqual(['triage', 'planner']);

  llm.enqueue(JSON.stringify(PLAN));
  await send(
    'issue_comment',
    commentPayload({ ...issue, comment: '/autofix plan use a map instead' }),
  );
  await waitFor(() => plans().length === 2 || undefined, underLoad(60_000), 'the second plan');
  expect(agents()).toEqual(['triage', 'planner', 'planner']);
  const replan = llm.chatRequests()[2]!.body.messages[1]!.content;
  expect(replan).toContain('use a map instead');
  expect(replan).toContain('The earlier plan:');

  llm.enqueue(FIX_DIFF, JSON.stringify(PR_SUMMARY));
  await send('issue_comment', commentPayload({ ...issue, comment: '/autofix approve' }));
  await waitFor(() => github.pulls[0], underLoad(60_000), 'the pull request');
  await env.runsEnded();
  expect(agents().filter((a) => a === 'planner')).toHaveLength(2);
  expect(agents().slice(0, 3)).toEqual(['triage', 'planner', 'planner']);
});
