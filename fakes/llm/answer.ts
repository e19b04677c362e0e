/**
 * What the scripted server answers a request: the fixed answers (a wrong key, the model list, an
 * unknown route, a request it cannot script) and a scripted reply as it goes out (JSON with a
 * status, or a dropped connection).
 */
import { completion } from './completion.js';
import type { RecordedRequest, ScriptedLlmServerOptions, StaticReply } from './types.js';

export type Answer =
  { status: number; body: unknown; headers?: Record<string, string> } | { drop: true };

const error = (status: number, message: string, more: Record<string, string> = {}): Answer => ({
  status,
  body: { error: { message, ...more } },
});

/** The answer when the request is not a chat request to script; undefined when it is one. */
export function fixedAnswer(
  record: RecordedRequest,
  options: ScriptedLlmServerOptions,
): Answer | undefined {
  const { method, path } = record;
  if (options.apiKey && record.headers.authorization !== `Bearer ${options.apiKey}`) {
    return error(401, 'Incorrect API key provided', {
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    });
  }
  if (method === 'GET' && path === '/v1/models') {
    const models = options.models ?? ['fake-model'];
    const data = models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' }));
    return { status: 200, body: { object: 'list', data } };
  }
  if (method !== 'POST' || path !== '/v1/chat/completions') {
    return error(404, `scripted-llm-server: no route ${method} ${path}`);
  }
  if (!Array.isArray(record.body.messages) || record.body.stream) {
    return error(400, 'scripted-llm-server: expected a JSON chat request without streaming');
  }
  return undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A scripted reply as it goes out, after its delay; 500 naming the request when there is none. */
export async function scriptedAnswer(
  reply: StaticReply | undefined,
  record: RecordedRequest,
): Promise<Answer> {
  if (reply === undefined) {
    return error(500, `scripted-llm-server: no scripted reply left for request #${record.n}`);
  }
  const normalized = typeof reply === 'string' ? { content: reply } : reply;
  if (normalized.delayMs) await sleep(normalized.delayMs);
  if ('drop' in normalized) return { drop: true };
  if ('status' in normalized) {
    const { status, headers } = normalized;
    const body = normalized.body ?? {
      error: { message: `scripted status ${status}`, type: 'server_error' },
    };
    return { status, body, ...(headers ? { headers } : {}) };
  }
  return { status: 200, body: completion(normalized, record) };
}
