/**
 * The repository's own CI as the follow-up on the bot's PRs reads it (issue #17): the check runs
 * on a commit, the base branch's required checks (branch protection and rulesets), and a failed
 * check's output — the job's log for GitHub Actions (`actions: read`), the check run's own text
 * and annotations for any other CI app.
 */
import { classifyError } from '../classify-error.js';
import { cropCiLog, type CroppedLog } from '../text/crop-ci-log.js';
import type { GitHubClient, RepoCoords } from './types.js';

export interface CiCheck {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  /** The app that reported it (`github-actions` for Actions jobs). */
  appSlug: string;
  url: string;
  output: { title: string | null; summary: string | null; text: string | null };
}

/** Conclusions that count as a failure of the change (not `cancelled`, `neutral`, `skipped`, `stale`). */
export const FAILED_CONCLUSIONS: ReadonlySet<string> = new Set([
  'failure',
  'timed_out',
  'startup_failure',
]);

export const ACTIONS_APP_SLUG = 'github-actions';

/**
 * GitHub's "not there, or not for this app": no protection or rulesets (404), logs expired (410),
 * an installation that has not accepted `actions: read` yet (403). A 403 that is a rate limit is
 * not one of these: it is retried like any outage, never read as "no required checks".
 */
const notFound = (err: unknown): boolean =>
  [403, 404, 410].includes((err as { status?: number }).status ?? 0) &&
  !classifyError(err).transient;

/** The latest check run of each name on `sha` (GitHub's default `filter=latest`). */
export async function listCiChecks(
  octokit: GitHubClient,
  repo: RepoCoords,
  sha: string,
): Promise<CiCheck[]> {
  const runs = await octokit.paginate(octokit.rest.checks.listForRef, {
    ...repo,
    ref: sha,
    filter: 'latest',
    per_page: 100,
  });
  return runs.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.status,
    conclusion: r.conclusion ?? null,
    appSlug: r.app?.slug ?? '',
    url: r.html_url ?? r.details_url ?? '',
    output: {
      title: r.output?.title ?? null,
      summary: r.output?.summary ?? null,
      text: r.output?.text ?? null,
    },
  }));
}

/**
 * The checks `branch` requires before a merge: classic branch protection's required status checks
 * and the required-status-checks rules of rulesets. A source the token may not read (404/403: no
 * protection, or no rulesets on an older GitHub Enterprise) adds none.
 */
export async function requiredCheckNames(
  octokit: GitHubClient,
  repo: RepoCoords,
  branch: string,
): Promise<Set<string>> {
  const names = new Set<string>();
  const [protection, rules] = await Promise.all([
    octokit.rest.repos.getBranch({ ...repo, branch }).then(
      ({ data }) => data.protection?.required_status_checks,
      (err: unknown) => {
        if (notFound(err)) return undefined;
        throw err;
      },
    ),
    octokit.rest.repos.getBranchRules({ ...repo, branch, per_page: 100 }).then(
      ({ data }) => data,
      (err: unknown) => {
        if (notFound(err)) return [];
        throw err;
      },
    ),
  ]);
  for (const context of protection?.contexts ?? []) names.add(context);
  for (const check of protection?.checks ?? []) names.add(check.context);
  for (const rule of rules) {
    if (rule.type !== 'required_status_checks') continue;
    const parameters = (rule as { parameters?: { required_status_checks?: { context: string }[] } })
      .parameters;
    for (const check of parameters?.required_status_checks ?? []) names.add(check.context);
  }
  return names;
}

export interface CiFailure extends CroppedLog {
  name: string;
  conclusion: string;
  url: string;
  /** Where the text came from: the job's log, or the check run's own output. */
  source: 'log' | 'check-output';
}

/** A failed check's story, cropped: the Actions job's log, else the check's output and annotations. */
export async function readCiFailure(
  octokit: GitHubClient,
  repo: RepoCoords,
  check: CiCheck,
): Promise<CiFailure> {
  const base = { name: check.name, conclusion: check.conclusion ?? 'failure', url: check.url };
  if (check.appSlug === ACTIONS_APP_SLUG) {
    // For Actions, a check run's id is its job's id; the API answers with a redirect to the log.
    const log = await octokit.rest.actions
      .downloadJobLogsForWorkflowRun({ ...repo, job_id: check.id })
      .then(({ data }) => (typeof data === 'string' ? data : String(data)))
      .catch((err: unknown) => {
        if (notFound(err)) return undefined; // logs expired or not readable: use the check's text
        throw err;
      });
    if (log !== undefined) return { ...base, ...cropCiLog(log), source: 'log' };
  }
  const annotations = await octokit
    .paginate(octokit.rest.checks.listAnnotations, {
      ...repo,
      check_run_id: check.id,
      per_page: 100,
    })
    .catch((err: unknown) => {
      if (notFound(err)) return [];
      throw err;
    });
  const text = [
    check.output.title,
    check.output.summary,
    check.output.text,
    ...annotations
      .slice(0, 50)
      .map((a) => `${a.path}:${a.start_line}: ${a.annotation_level}: ${a.message ?? ''}`),
  ]
    .filter((part): part is string => Boolean(part))
    .join('\n');
  return { ...base, ...cropCiLog(text), source: 'check-output' };
}
