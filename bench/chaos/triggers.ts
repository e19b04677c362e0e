/**
 * One trigger per run: a signed `issues.labeled` delivery for its own issue, sent by the fake
 * GitHub the way GitHub sends it — once, with a 10 s time-out, on record in its delivery log. A
 * delivery answered with anything but 2xx, or not at all, stays failed until serve's reconciler
 * asks for a redelivery (GitHub does not redeliver by itself).
 */
import { randomUUID } from 'node:crypto';
import { labeledPayload } from '../../test/helpers/webhooks.js';

export const TITLE = 'add() returns the wrong result';
export const BODY = 'add(2, 3) is -1';
export interface Delivery {
  run: number;
  issue: number;
  deliveryId: string;
  event: string;
  body: string;
  /** ms since the start of the schedule. */
  sentAtMs: number;
  /** HTTP status, or undefined when nothing came back. */
  status?: number;
  error?: string;
  ms: number;
}

export function triggerBody(issue: number, cloneUrl: string): string {
  return JSON.stringify(labeledPayload({ issueNumber: issue, title: TITLE, body: BODY, cloneUrl }));
}

export function newDelivery(
  run: number,
  issue: number,
  cloneUrl: string,
  sentAtMs: number,
): Delivery {
  return {
    run,
    issue,
    deliveryId: randomUUID(),
    event: 'issues',
    body: triggerBody(issue, cloneUrl),
    sentAtMs,
    ms: 0,
  };
}

export const delivered = (d: Delivery): boolean =>
  d.status !== undefined && d.status >= 200 && d.status < 300;
