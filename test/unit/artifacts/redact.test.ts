import { createRedactor, maskSecret, redactDeep } from '../../../src/artifacts/redact.js';

describe('redaction', () => {
  it('keeps only the last two characters of a secret', () => {
    expect(maskSecret('abcdefgh')).toBe('****gh');
  });

  it('redacts registered secrets everywhere they appear', () => {
    const redact = createRedactor(['my-api-key-123456']);
    expect(redact('key=my-api-key-123456 again my-api-key-123456')).toBe('key=****56 again ****56');
  });

  it('redacts secrets added later and well-known token shapes', () => {
    const redact = createRedactor();
    redact.add('installation-token-zz');
    expect(redact('x installation-token-zz y')).toBe('x ****zz y');
    expect(redact('token ghs_abcdefghijklmnopqrstuvwxyz0123')).toBe('token ****23');
    expect(redact('Authorization: Bearer abc.def.ghi')).toBe('Authorization: Bearer ****hi');
  });

  it('ignores values too short to be secrets', () => {
    const redact = createRedactor(['ab', '']);
    expect(redact('ab cd')).toBe('ab cd');
  });

  it('redacts nested JSON values', () => {
    const redact = createRedactor(['sk-secretvalue-99']);
    expect(
      redactDeep({ a: ['sk-secretvalue-99'], b: { c: 'x sk-secretvalue-99' }, n: 1 }, redact),
    ).toEqual({
      a: ['****99'],
      b: { c: 'x ****99' },
      n: 1,
    });
  });
  it('finds where a registered secret stands, in every form it masks, and not the token shapes', () => {
    const secret = 'sk-find-me-0123456789abcdef';
    const redact = createRedactor([secret]);
    const b64 = Buffer.from(`pre ${secret} post`).toString('base64');
    const percent = [...Buffer.from(secret)].map((b) => `%${b.toString(16)}`).join('');
    const text = [
      `plain ${secret}`,
      `url ${percent}`,
      'shape ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      `base64 ${b64.slice(0, 20)}`,
      b64.slice(20),
    ].join('\n');
    const spans = redact.find(text);
    expect(spans.map((s) => s.label)).toEqual([
      'a secret',
      'URL-encoded secret',
      'base64 of a secret',
    ]);
    const [plain, url, base64] = spans;
    expect(text.slice(plain!.start, plain!.end)).toBe(secret);
    expect(text.slice(url!.start, url!.end)).toBe(percent);
    // A wrapped run is found across its line break, from its first character to its last.
    expect(text.slice(base64!.start, base64!.end)).toBe(`${b64.slice(0, 20)}\n${b64.slice(20)}`);
    expect(createRedactor().find(text)).toEqual([]);
  });
});
