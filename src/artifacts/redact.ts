/**
 * Secret redaction (docs/SECURITY.md, rule 6): a secret shows only as `****` plus its last two
 * characters, in every log, artifact, comment and error message. Its encoded forms too (issue #11:
 * a command printed the environment base64-encoded and the PR body carried the private key): base64
 * at any offset and wrapping, hex, percent-encoding and a PEM key's bare body mask the whole
 * encoded run as `****(base64 of a secret)` and the like. Each secret's forms are computed once, in
 * `add`.
 */
import { createEncodedRunIndex } from './encoded-run-index.js';
import { findUrlEncoded, maskUrlEncoded } from './mask-url-encoded.js';
import { LABELS, MIN_SECRET_LENGTH, secretForms } from './secret-forms.js';

export function maskSecret(secret: string): string {
  return `****${secret.slice(-2)}`;
}

/** Well-known token shapes redacted even when the value was never registered. */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bsk-[A-Za-z0-9_-]{16,}\b/g, // OpenAI-style keys
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /(\bAuthorization:\s*(?:Bearer|token|Basic)\s+)([^\s'"]+)/gi,
];

/** Where a registered secret stands in a text, and in which form (never the value). */
export interface SecretSpan {
  start: number;
  end: number;
  /** `a secret`, or the encoding's label (`base64 of a secret`…). */
  label: string;
}

export interface Redactor {
  (text: string): string;
  /** Adds more secret values (e.g. a freshly minted installation token). */
  add(...secrets: (string | undefined | null)[]): void;
  /**
   * Masks the registered values and their encodings only, not every token-shaped string: for
   * what goes *in* to the model, where a repository's test fixture `ghp_…` must stay as it is
   * (the model edits those lines) but the run's own keys must not be sent.
   */
  known(text: string): string;
  /**
   * Where the registered secrets stand in `text`, in every form the redactor masks (the
   * well-known token shapes are not looked for: they are not this run's secrets).
   */
  find(text: string): SecretSpan[];
}

/** Builds a redactor for the given secret values plus well-known token shapes. */
export function createRedactor(secrets: readonly (string | undefined | null)[] = []): Redactor {
  const registered = new Set<string>();
  const exact = new Set<string>();
  const decoded = new Set<string>();
  const encoded = createEncodedRunIndex();
  // Longest first so a secret that contains another is masked whole.
  let exactByLength: string[] = [];
  let decodedByLength: string[] = [];
  let spaceInSecret = false;

  const add = (...values: (string | undefined | null)[]): void => {
    let grew = false;
    for (const value of values) {
      if (!value || value.length < MIN_SECRET_LENGTH || registered.has(value)) continue;
      registered.add(value);
      const forms = secretForms(value);
      for (const s of forms.exact) exact.add(s);
      for (const s of forms.decoded) decoded.add(s);
      for (const pattern of forms.encoded) encoded.add(pattern);
      grew = true;
    }
    if (!grew) return;
    exactByLength = [...exact].sort((a, b) => b.length - a.length);
    decodedByLength = [...decoded].sort((a, b) => b.length - a.length);
    spaceInSecret = decodedByLength.some((s) => s.includes(' '));
  };
  add(...secrets);

  const holdsSecret = (text: string): boolean => decodedByLength.some((s) => text.includes(s));

  const known = (text: string): string => {
    let out = text;
    for (const secret of exactByLength) {
      if (out.includes(secret)) out = out.split(secret).join(maskSecret(secret));
    }
    if (decodedByLength.length > 0) {
      out = maskUrlEncoded(out, {
        holdsSecret,
        plusForSpace: spaceInSecret,
        marker: `****(${LABELS.url})`,
      });
    }
    return encoded.mask(out);
  };

  const redact = ((text: string): string => {
    let out = known(text);
    for (const pattern of TOKEN_PATTERNS) {
      out = out.replace(pattern, (match: string, prefix?: string, value?: string) =>
        typeof prefix === 'string' && typeof value === 'string'
          ? `${prefix}${maskSecret(value)}`
          : maskSecret(match),
      );
    }
    return out;
  }) as Redactor;
  const find = (text: string): SecretSpan[] => {
    const spans: SecretSpan[] = [];
    for (const secret of exactByLength) {
      for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + secret.length))
        spans.push({ start: at, end: at + secret.length, label: 'a secret' });
    }
    if (decodedByLength.length > 0) {
      const runs = findUrlEncoded(text, { holdsSecret, plusForSpace: spaceInSecret });
      spans.push(...runs.map((run) => ({ ...run, label: LABELS.url })));
    }
    spans.push(...encoded.find(text));
    return spans.sort((a, b) => a.start - b.start);
  };

  redact.add = add;
  redact.known = known;
  redact.find = find;
  return redact;
}

/** Redacts every string inside a JSON-like value (for artifacts written as JSON). */
export function redactDeep<T>(value: T, redact: (s: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v, redact)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      out[k] = redactDeep(v, redact);
    return out as T;
  }
  return value;
}
