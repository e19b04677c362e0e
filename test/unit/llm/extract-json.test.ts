import { extractJson } from '../../../src/text/extract-json.js';

describe('extractJson', () => {
  it('parses a bare JSON reply', () => {
    expect(extractJson(' {"a": 1} ')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('strips a markdown fence and the prose around it', () => {
    const reply = 'Here is the plan:\n```json\n{"a": [1, 2]}\n```\nLet me know!';
    expect(extractJson(reply)).toEqual({ ok: true, value: { a: [1, 2] } });
  });

  it('finds a balanced object inside prose, braces in strings included', () => {
    const reply = 'Sure [1]. {"code": "if (x) { y(); }", "n": {"m": "}"}} hope that helps';
    expect(extractJson(reply)).toEqual({
      ok: true,
      value: { code: 'if (x) { y(); }', n: { m: '}' } },
    });
  });

  it("skips a reasoning model's think block", () => {
    expect(extractJson('<think>maybe {"wrong": 1}</think>\n{"right": 2}')).toEqual({
      ok: true,
      value: { right: 2 },
    });
  });

  it('explains what is wrong when nothing parses', () => {
    expect(extractJson('')).toEqual({ ok: false, error: 'the reply is empty' });
    expect(extractJson('no json here')).toEqual({
      ok: false,
      error: 'no JSON object found in the reply',
    });
    const cut = extractJson('{"a": 1, "b": ');
    expect(cut.ok).toBe(false);
    expect(!cut.ok && cut.error).toMatch(/not closed/);
    const bad = extractJson('{"a": 1,}');
    expect(!bad.ok && bad.error).toMatch(/does not parse/);
  });
});
