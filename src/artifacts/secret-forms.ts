/**
 * Every spelling of one secret that a redactor must catch, computed once when the secret is
 * registered: as written and with its line breaks spelled the other usual ways, its base64 (at
 * each byte offset, both alphabets) and hex, and for a PEM private key the base64 body and its
 * lines and the DER they encode.
 */
import { base64Cores } from './base64-cores.js';
import type { EncodedPattern } from './encoded-run-index.js';
import { pemBody } from './pem-body.js';

/** Shortest value we treat as a secret; shorter strings would redact ordinary words. */
export const MIN_SECRET_LENGTH = 6;

/** The bytes of a PEM body line that still identify the key when printed alone. */
const MIN_PEM_LINE = 16;

export const LABELS = {
  base64: 'base64 of a secret',
  hex: 'hex of a secret',
  url: 'URL-encoded secret',
  pem: 'part of a private key',
} as const;

export interface SecretForms {
  /** Masked where they appear verbatim (`****` + last two characters). */
  exact: string[];
  /** Looked for in percent-decoded text. */
  decoded: string[];
  /** Looked for inside runs of base64/hex characters. */
  encoded: EncodedPattern[];
}

/** The secret as given, trimmed, and with its line breaks as `\n`, `\r\n` or a literal `\n`. */
function spellings(secret: string): string[] {
  const trimmed = secret.trim();
  const out = new Set([secret, trimmed]);
  const lines = trimmed.split(/\r?\n|\\n/);
  if (lines.length > 1) {
    out.add(lines.join('\n'));
    out.add(lines.join('\r\n'));
    out.add(lines.join('\\n'));
  }
  return [...out].filter((s) => s.length >= MIN_SECRET_LENGTH);
}

function encodingsOf(bytes: Buffer): EncodedPattern[] {
  return [
    ...base64Cores(bytes).map((text) => ({ text, label: LABELS.base64 })),
    { text: bytes.toString('hex'), label: LABELS.hex },
    { text: bytes.toString('hex').toUpperCase(), label: LABELS.hex },
  ];
}

export function secretForms(secret: string): SecretForms {
  const exact = spellings(secret);
  const decoded = [...exact];
  const encoded = exact.flatMap((s) => encodingsOf(Buffer.from(s, 'utf8')));
  const pem = pemBody(secret);
  if (pem) {
    decoded.push(pem.joined);
    encoded.push(
      { text: pem.joined, label: LABELS.pem },
      ...pem.lines
        .filter((line) => line.length >= MIN_PEM_LINE)
        .map((text) => ({ text, label: LABELS.pem })),
      ...encodingsOf(pem.der),
    );
  }
  return { exact, decoded, encoded };
}
