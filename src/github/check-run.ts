/**
 * The "Autofix verification" Check Run on the PR's head commit (issue #17): the verdict
 * (`verdict/`: what passed and failed, the conclusion, its text and annotations) published where
 * a maintainer reads it first.
 *
 * `renderCheckRun` makes the verdict a `POST /check-runs` payload; `publishCheckRun` creates the
 * run, or updates this app's run of the same name on the same commit (a retried stage or a re-run
 * never adds a second one).
 */
import type { Logger } from '../logger.js';
import type { Annotation } from '../verdict/annotations.js';
import type { VerdictConclusion, VerdictInput } from '../verdict/decide-verdict.js';
import { renderVerdict } from '../verdict/render-verdict.js';
import type { GitHubClient, RepoCoords } from './types.js';

export const CHECK_RUN_NAME = 'Autofix verification';
/** GitHub's limit for a check run's `output.summary` and `output.text`. */
export const MAX_CHECK_OUTPUT_CHARS = 65_535;

/** The verdict, and where the check run links to. */
export interface CheckRunInput extends VerdictInput {
  /** "Details" link of the check run (the PR or the run's page). */
  detailsUrl?: string;
}

/** What `POST /repos/{owner}/{repo}/check-runs` receives (`completed_at` is added on publish). */
export interface CheckRunPayload {
  name: typeof CHECK_RUN_NAME;
  head_sha: string;
  status: 'completed';
  conclusion: VerdictConclusion;
  external_id: string;
  details_url?: string;
  output: { title: string; summary: string; text?: string; annotations: Annotation[] };
}

export function renderCheckRun(input: CheckRunInput): CheckRunPayload {
  const { conclusion, ...output } = renderVerdict(input, MAX_CHECK_OUTPUT_CHARS);
  return {
    name: CHECK_RUN_NAME,
    head_sha: input.headSha,
    status: 'completed',
    conclusion,
    external_id: input.runId,
    ...(input.detailsUrl ? { details_url: input.detailsUrl } : {}),
    output,
  };
}

export interface PublishCheckRunOptions {
  /**
   * The app's id (`APP_ID`): only this app's runs are updated. Without it a run of the same name
   * is taken as ours, and when GitHub refuses to update it (another app's) a new one is created.
   */
  appId?: number;
  /** The clock for `completed_at`. */
  now?: () => Date;
}

export interface PublishedCheckRun {
  id: number;
  url?: string;
  /** False when an existing run for the same commit was updated. */
  created: boolean;
  conclusion: VerdictConclusion;
}

type ExistingRun = { id: number; annotationsCount: number };

async function findOwnRun(
  octokit: GitHubClient,
  repo: RepoCoords,
  headSha: string,
  appId: number | undefined,
): Promise<ExistingRun | undefined> {
  const { data } = await octokit.rest.checks.listForRef({
    ...repo,
    ref: headSha,
    check_name: CHECK_RUN_NAME,
    filter: 'latest',
    per_page: 100,
    ...(appId === undefined ? {} : { app_id: appId }),
  });
  const ours = data.check_runs
    .filter((r) => r.name === CHECK_RUN_NAME && r.head_sha === headSha)
    .filter((r) => appId === undefined || r.app?.id === appId)
    .sort((a, b) => b.id - a.id)[0];
  return ours && { id: ours.id, annotationsCount: ours.output?.annotations_count ?? 0 };
}

const annotationKey = (a: {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level?: string | null;
  message?: string | null;
  title?: string | null;
}): string =>
  JSON.stringify([a.path, a.start_line, a.end_line, a.annotation_level, a.message, a.title ?? '']);

/**
 * GitHub appends an update's annotations to the run's existing ones (it cannot remove any): send
 * only those the run does not have yet, so a re-publish for the same commit does not double them.
 */
async function annotationsToAdd(
  octokit: GitHubClient,
  repo: RepoCoords,
  run: ExistingRun,
  annotations: Annotation[],
  log: Logger,
): Promise<Annotation[]> {
  if (run.annotationsCount === 0 || annotations.length === 0) return annotations;
  try {
    const existing = await octokit.paginate(octokit.rest.checks.listAnnotations, {
      ...repo,
      check_run_id: run.id,
      per_page: 100,
    });
    const have = new Set(existing.map(annotationKey));
    return annotations.filter((a) => !have.has(annotationKey(a)));
  } catch (err) {
    log.warn({ err, checkRunId: run.id }, 'could not read the check run’s annotations');
    return annotations;
  }
}

const statusOf = (err: unknown): number | undefined =>
  typeof err === 'object' && err !== null && 'status' in err
    ? Number((err as { status: unknown }).status)
    : undefined;

/**
 * Publishes the verification on `input.headSha`: updates this app's "Autofix verification" run on
 * that commit when there is one, creates it otherwise. Best effort, like the status comment: a
 * refusal (the installation lacks `checks: write`, GitHub is down) is logged and gives undefined;
 * it never fails the run whose PR is already open.
 */
export async function publishCheckRun(
  octokit: GitHubClient,
  repo: RepoCoords,
  input: CheckRunInput,
  log: Logger,
  options: PublishCheckRunOptions = {},
): Promise<PublishedCheckRun | undefined> {
  const payload = renderCheckRun(input);
  const completedAt = (options.now?.() ?? new Date()).toISOString();
  const { conclusion } = payload;
  try {
    const existing = await findOwnRun(octokit, repo, input.headSha, options.appId);
    if (existing) {
      try {
        const annotations = await annotationsToAdd(
          octokit,
          repo,
          existing,
          payload.output.annotations,
          log,
        );
        // An update names no commit: the run keeps its own.
        const { data } = await octokit.rest.checks.update({
          ...repo,
          check_run_id: existing.id,
          name: payload.name,
          status: payload.status,
          conclusion,
          external_id: payload.external_id,
          ...(payload.details_url ? { details_url: payload.details_url } : {}),
          completed_at: completedAt,
          output: { ...payload.output, annotations },
        });
        return { id: data.id, url: data.html_url ?? undefined, created: false, conclusion };
      } catch (err) {
        // Not ours after all (another app's run of the same name): ours is created beside it.
        if (statusOf(err) !== 403 && statusOf(err) !== 404) throw err;
        log.warn({ err, checkRunId: existing.id }, 'could not update the check run; creating one');
      }
    }
    const { data } = await octokit.rest.checks.create({
      ...repo,
      ...payload,
      completed_at: completedAt,
    });
    return { id: data.id, url: data.html_url ?? undefined, created: true, conclusion };
  } catch (err) {
    log.warn({ err, headSha: input.headSha }, 'could not publish the check run');
    return undefined;
  }
}
