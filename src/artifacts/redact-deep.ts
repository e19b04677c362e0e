/**
 * Every string of a JSON value passed through the redactor (object keys too), for a page that
 * renders a whole record: nothing in it can reach the page unredacted, whichever field it is in.
 * Redacted before anything is cropped, so a crop never cuts a secret into a shape the redactor no
 * longer knows.
 */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  return walk(value, redact) as T;
}

function walk(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => walk(item, redact));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        redact(k),
        walk(v, redact),
      ]),
    );
  }
  return value;
}
