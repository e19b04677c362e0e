import { parseRepoConfig } from '../../../../src/config/repo-config.js';
import type { FixPlan } from '../../../../src/contracts.js';
import type { GitHubClient } from '../../../../src/github/types.js';
import { planApprovalPolicy } from '../../../../src/hosts/app/stages/plan-approval.js';
import { silentLogger } from '../../../../src/logger.js';
import type { Run } from '../../../../src/runs/run-record.js';

interface Posted {
  issue_number: number;
  body: string;
}

/** A GitHub that keeps the comments posted (as the bot's) and lists them back. */
function fakeOctokit(posted: Posted[]): GitHubClient {
  const client = {
    paginate: {
      // One page; `for await` takes a plain array too.
      iterator: (_list: unknown, params: { issue_number: number }) => [
        {
          data: posted
            .filter((p) => p.issue_number === params.issue_number)
            .map((p, i) => ({ id: i + 1, body: p.body, user: { type: 'Bot' } })),
        },
      ],
    },
    rest: {
      issues: {
        listComments: () => undefined,
        createComment: (p: Posted) => {
          posted.push(p);
          return Promise.resolve({ data: {} });
        },
      },
    },
  };
  return client as unknown as GitHubClient;
}

const PLAN: FixPlan = {
  branch_name: 'autofix/fix/3-x',
  commit_type: 'fix',
  scope: 'x',
  plan_steps: [{ id: '1', description: 'Fix it, see ghp_secret0123456789' }],
  file_changes: [{ path: 'src/x.ts', operation: 'MODIFY' }],
  validation_commands: [],
};

function runOf(config: string, over: Partial<Run> = {}): Run {
  return {
    runId: 'run-1',
    installationId: 1,
    repository: { owner: 'o', name: 'r', fullName: 'o/r', cloneUrl: 'https://github.com/o/r.git' },
    issue: { number: 3, title: 't', body: '' },
    facts: { conversation: 3 },
    config: parseRepoConfig(config),
    outputs: { triage: { risk: 'LOW', classification: 'fix', affected_files: [], summary: 's' } },
    resumes: [],
    acceptedAt: 1_000_000,
    ...over,
  } as unknown as Run;
}

describe('the plan approval policy', () => {
  const setup = () => {
    const posted: Posted[] = [];
    const policy = planApprovalPolicy({
      auth: () =>
        Promise.resolve({
          octokit: fakeOctokit(posted),
          getInstallationToken: () => Promise.resolve('t'),
        }),
      log: silentLogger,
      redact: (text) => text.replace(/ghp_\w+/g, '***'),
    });
    return { posted, policy };
  };

  it('lets a run go on when approval is off, and after any stage but plan', async () => {
    const { posted, policy } = setup();
    expect(await policy(runOf(''), 'plan', PLAN)).toBeUndefined();
    expect(await policy(runOf('plan_approval: required'), 'triage', undefined)).toBeUndefined();
    expect(posted).toEqual([]);
  });

  it('posts the plan once (a retry finds it), redacted, and parks for plan-approval', async () => {
    const { posted, policy } = setup();
    const run = runOf('plan_approval: required');
    const first = await policy(run, 'plan', PLAN);
    const again = await policy(run, 'plan', PLAN);
    expect(first).toMatchObject({ reason: 'plan-approval' });
    expect(first?.message).toContain('`/autofix approve`');
    expect(again).toEqual(first);
    expect(posted).toHaveLength(1);
    expect(posted[0]!.issue_number).toBe(3);
    expect(posted[0]!.body).toContain('| `src/x.ts` | MODIFY |');
    expect(posted[0]!.body).not.toContain('ghp_secret');
  });

  it("posts a re-plan's plan as a new comment, on the PR for a feedback run", async () => {
    const { posted, policy } = setup();
    const run = runOf('plan_approval: required', { facts: { conversation: 12 } } as Partial<Run>);
    await policy(run, 'plan', PLAN);
    const resumed = {
      ...run,
      resumes: [{ by: 'm', at: 1, reason: 'plan-approval', key: 'k', stage: 'plan' }],
    };
    await policy(resumed as Run, 'plan', PLAN);
    expect(posted.map((p) => p.issue_number)).toEqual([12, 12]);
  });
});
