import { createHash } from 'node:crypto';

/** Hex sha256 of text (as UTF-8) or bytes: the `base_sha256` a change was made against. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
