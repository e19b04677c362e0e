/**
 * What a test makes go wrong: injected failures (`failNext`), disruptions (delays, drops, chosen
 * answers: `disruptNext`) and intercepts (`interceptNext`). Each is used by the next matching
 * requests and then forgotten.
 */
import type { ServerResponse } from 'node:http';
import type { Reply } from './route.js';
import type { Disruption, FakeGitHubFaults, RecordedRequest } from './types.js';

interface Intercept {
  method: string;
  path: string | RegExp;
  when: 'before' | 'after';
  run: () => void | Promise<void>;
}

export interface Faults extends FakeGitHubFaults {
  /** Applies the first matching disruption; true when the request was answered (or dropped). */
  disrupt(record: RecordedRequest, res: ServerResponse): Promise<boolean>;
  /** The injected failure's reply for this request, if one matches. */
  failure(record: RecordedRequest): Reply | undefined;
  /** The intercept that matches this request, taken off the list. */
  intercept(record: RecordedRequest): Intercept | undefined;
}

export const matches = (pattern: string | RegExp, path: string): boolean =>
  typeof pattern === 'string' ? pattern === path : pattern.test(path);

/** Takes the first entry for this request; one with `times` is kept until it is used up. */
function take<T extends { method: string; path: string | RegExp; times?: number }>(
  list: T[],
  record: RecordedRequest,
  anyMethod = false,
): T | undefined {
  const found = list.find(
    (x) =>
      (x.method === record.method || (anyMethod && x.method === '*')) &&
      matches(x.path, record.path),
  );
  if (found && (found.times === undefined || --found.times <= 0)) {
    list.splice(list.indexOf(found), 1);
  }
  return found;
}

async function applyDisruption(d: Disruption, res: ServerResponse): Promise<boolean> {
  if (d.delayMs) await new Promise((r) => setTimeout(r, d.delayMs));
  if (d.drop) {
    res.socket?.destroy();
    return true;
  }
  if (d.status === undefined) return false;
  const text = JSON.stringify({ message: d.message ?? 'injected failure' });
  res
    .writeHead(d.status, { 'content-type': 'application/json; charset=utf-8', ...d.headers })
    .end(text);
  return true;
}

export function createFaults(): Faults {
  const failures: { method: string; path: string | RegExp; status: number; times: number }[] = [];
  const disruptions: Disruption[] = [];
  const intercepts: Intercept[] = [];
  return {
    failNext(method, path, status = 502, times = 1) {
      failures.push({ method, path, status, times });
    },
    disruptNext: (disruption) => void disruptions.push({ ...disruption }),
    interceptNext: (method, path, when, run) => void intercepts.push({ method, path, when, run }),
    async disrupt(record, res) {
      const d = take(disruptions, record, true);
      return d ? applyDisruption(d, res) : false;
    },
    failure(record) {
      const f = take(failures, record);
      return f && { status: f.status, body: { message: 'injected failure' } };
    },
    intercept: (record) => take(intercepts, record),
  };
}
