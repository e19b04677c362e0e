/**
 * Secret redaction (DESIGN.md §5.6): a secret shows only as `****` plus its last two characters,
 * in every log, artifact, comment and error message.
 */

/** Shortest value we treat as a secret; shorter strings would redact ordinary words. */
const MIN_SECRET_LENGTH = 6;

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

export interface Redactor {
  (text: string): string;
  /** Adds more secret values (e.g. a freshly minted installation token). */
  add(...secrets: (string | undefined | null)[]): void;
}

/** Builds a redactor for the given secret values plus well-known token shapes. */
export function createRedactor(secrets: readonly (string | undefined | null)[] = []): Redactor {
  const known = new Set<string>();
  const add = (...values: (string | undefined | null)[]): void => {
    for (const value of values) {
      if (value && value.length >= MIN_SECRET_LENGTH) known.add(value);
    }
  };
  add(...secrets);

  const redact = ((text: string): string => {
    let out = text;
    // Longest first so a secret that contains another is masked whole.
    for (const secret of [...known].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join(maskSecret(secret));
    }
    for (const pattern of TOKEN_PATTERNS) {
      out = out.replace(pattern, (match: string, prefix?: string, value?: string) =>
        typeof prefix === 'string' && typeof value === 'string'
          ? `${prefix}${maskSecret(value)}`
          : maskSecret(match),
      );
    }
    return out;
  }) as Redactor;
  redact.add = add;
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
