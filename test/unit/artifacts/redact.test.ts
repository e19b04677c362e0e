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
});
