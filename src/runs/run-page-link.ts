/**
 * The run page's signed links (docs/SECURITY.md, "The run page"): `/runs/<id>?expires=<unix s>&sig=…`
 * where `sig` is HMAC-SHA256 over the run id and the expiry, keyed by a key derived (HKDF-SHA256,
 * a fixed label) from the webhook secret, which `serve` and the workers both have. The key never
 * leaves the process; a link is good until its expiry, 30 days after the run was accepted (as long
 * as the run's record is kept), so every edit of the status comment prints the same link.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { RUN_RECORD_TTL_MS } from './run-store-keys.js';

/** The path of run pages. */
export const RUN_PAGE_PATH = '/runs/';

/** HKDF's `info`: a key for run-page links only, never usable as the webhook secret itself. */
const KEY_LABEL = 'autofix run page link v1';

/** What a run id may be in a link (run ids are `run-<hex>`): anything else is refused unread. */
const RUN_ID = /^[A-Za-z0-9._-]{1,100}$/;
const EXPIRES = /^\d{1,12}$/;

/** The key that signs run-page links, from the operator's secret (WEBHOOK_SECRET). */
export function runPageKey(operatorSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', operatorSecret, '', KEY_LABEL, 32));
}

export interface RunPageSignature {
  /** Unix seconds after which the link answers 404. */
  expires: number;
  /** base64url HMAC-SHA256. */
  sig: string;
}

export interface RunPageLinks {
  /** The run page's public address for a run (expiry from when it was accepted). */
  urlOf(run: { runId: string; acceptedAt: number }): string;
  /** Whether a link's id, expiry and signature are ours and the link has not expired. */
  verify(runId: string, expires: string | null, sig: string | null, now: number): boolean;
}

function mac(key: Buffer, runId: string, expires: number): Buffer {
  // NUL separates the fields: neither a run id nor a number holds one.
  return createHmac('sha256', key).update(`autofix-run-page\0${runId}\0${expires}`).digest();
}

export function signRunPage(key: Buffer, runId: string, expires: number): RunPageSignature {
  return { expires, sig: mac(key, runId, expires).toString('base64url') };
}

/**
 * Checks in constant time whatever was altered: the expected signature is always computed and
 * always compared (against itself when the given one has the wrong length), expiry judged after.
 */
export function verifyRunPage(
  key: Buffer,
  runId: string,
  expires: string | null,
  sig: string | null,
  now: number,
): boolean {
  const wellFormed = RUN_ID.test(runId) && EXPIRES.test(expires ?? '');
  const at = wellFormed ? Number(expires) : 0;
  // The text is compared, not its decoding: base64url decoding forgives stray characters and
  // the last character's unused bits, so an altered signature could decode to the same bytes.
  const expected = Buffer.from(mac(key, wellFormed ? runId : '', at).toString('base64url'));
  const given = Buffer.from(sig ?? '');
  const sameLength = given.length === expected.length;
  const equal = timingSafeEqual(expected, sameLength ? given : expected) && sameLength;
  return wellFormed && equal && at * 1000 > now;
}

/** Whether `runId` can be a run page's id at all (the route refuses others before any lookup). */
export const isRunPageId = (runId: string): boolean => RUN_ID.test(runId);

/**
 * Links under `baseUrl` (PUBLIC_URL: how people reach `serve`), signed with `key`. Without a
 * public URL there are no links: a wrong address is worse than none.
 */
export function createRunPageLinks(options: {
  baseUrl: string;
  key: Buffer;
  /** How long a link lasts after the run was accepted (default: as long as the record). */
  ttlMs?: number;
}): RunPageLinks {
  const { key } = options;
  const base = options.baseUrl.replace(/\/+$/, '');
  const ttlMs = options.ttlMs ?? RUN_RECORD_TTL_MS;
  return {
    urlOf(run) {
      const expires = Math.floor((run.acceptedAt + ttlMs) / 1000);
      const { sig } = signRunPage(key, run.runId, expires);
      return `${base}${RUN_PAGE_PATH}${encodeURIComponent(run.runId)}?expires=${expires}&sig=${sig}`;
    },
    verify: (runId, expires, sig, now) => verifyRunPage(key, runId, expires, sig, now),
  };
}
