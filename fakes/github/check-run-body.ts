/**
 * A check run as GitHub answers it, and a create or update body applied to one as GitHub applies
 * it: annotations appended (at most 50 per request), `completed` only with a conclusion, a
 * conclusion completing the run.
 */
import type { Reply } from './route.js';
import type { FakeCheckRun } from './types.js';

/** GitHub's limit of annotations per create or update request. */
const CHECK_RUN_ANNOTATIONS_PER_REQUEST = 50;

export type CheckRunBody = Partial<Omit<FakeCheckRun, 'output'>> & {
  output?: FakeCheckRun['output'] & { annotations?: Record<string, unknown>[] };
};

export function checkRunJson(base: string, r: FakeCheckRun) {
  return {
    id: r.id,
    name: r.name,
    head_sha: r.head_sha,
    status: r.status,
    conclusion: r.conclusion,
    external_id: r.external_id ?? '',
    details_url: r.details_url ?? null,
    html_url: `${base}/runs/${r.id}`,
    started_at: r.started_at,
    completed_at: r.completed_at ?? null,
    output: {
      title: r.output.title ?? null,
      summary: r.output.summary ?? null,
      text: r.output.text ?? null,
      annotations_count: r.annotations.length,
    },
    app: { ...r.app, name: r.app.slug },
  };
}

/** Applies a create or update body; a 422 reply when GitHub would refuse it. */
export function applyCheckRun(run: FakeCheckRun, body: CheckRunBody): Reply | undefined {
  const annotations = body.output?.annotations ?? [];
  if (annotations.length > CHECK_RUN_ANNOTATIONS_PER_REQUEST) {
    return { status: 422, body: { message: 'Only 50 annotations are allowed per request' } };
  }
  if (body.status === 'completed' && !body.conclusion && !run.conclusion) {
    return { status: 422, body: { message: 'conclusion is required when status is completed' } };
  }
  for (const key of ['name', 'status', 'external_id', 'details_url', 'completed_at'] as const) {
    if (body[key] !== undefined) Object.assign(run, { [key]: body[key] });
  }
  if (body.conclusion !== undefined) {
    run.conclusion = body.conclusion;
    run.status = 'completed';
  }
  if (body.output) {
    const { title, summary, text } = body.output;
    run.output = {
      ...run.output,
      ...(title === undefined ? {} : { title }),
      ...(summary === undefined ? {} : { summary }),
      ...(text === undefined ? {} : { text }),
    };
    run.annotations.push(...annotations);
  }
  run.history.push(body);
  return undefined;
}
