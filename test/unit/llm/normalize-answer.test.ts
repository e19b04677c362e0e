import { normalizeAnswer } from '../../../src/llm/normalize-answer.js';

const DIFF = '--- a/x.js\n+++ b/x.js\n@@ -1 +1 @@\n-a\n+b\n';

describe('normalizeAnswer (provider quirks, every answer format)', () => {
  it('removes reasoning sections, wherever they are', () => {
    const got = normalizeAnswer(`<think>\nthe bug is in x.js\n</think>\n${DIFF}`);
    expect(got.text).toBe(DIFF);
    expect(got.reasoning).toContain('the bug is in x.js');
    expect(normalizeAnswer(`<thinking>a</thinking>${DIFF}<reasoning>b</reasoning>`).text).toBe(
      DIFF,
    );
  });

  it('cuts everything before a closing tag whose opening tag was in the chat template', () => {
    expect(normalizeAnswer(`so the fix is…\n</think>\n\n${DIFF}`).text).toBe(DIFF);
  });

  it('keeps nothing of a reply cut off inside its reasoning', () => {
    expect(normalizeAnswer('<think>still thinking about x.js and').text).toBe('');
  });

  it('unwraps an outer markdown fence around the whole answer, keeping inner fences', () => {
    const inner = '```diff\n' + DIFF + '```';
    expect(normalizeAnswer('```markdown\n' + inner + '\n```').text).toBe(inner);
    // A diff fence alone is the parser's business.
    expect(normalizeAnswer(inner).text).toBe(inner);
  });

  it("reports a refusal, the provider's or a reply that only declines", () => {
    expect(normalizeAnswer('', { refusal: 'I cannot help with that.' }).refusal).toBe(
      'I cannot help with that.',
    );
    expect(normalizeAnswer("I'm sorry, but I can't help with that request.").refusal).toBe(
      "I'm sorry, but I can't help with that request.",
    );
    // A diff with an apology in it is an answer.
    expect(normalizeAnswer(`I'm sorry, I can't help noticing:\n${DIFF}`).refusal).toBeNull();
    expect(normalizeAnswer(DIFF).refusal).toBeNull();
  });

  it('leaves text without quirks unchanged, tags inside code included', () => {
    const code = '--- a/x.html\n+++ b/x.html\n@@ -1 +1 @@\n-<p>\n+<think-tank>\n';
    expect(normalizeAnswer(code)).toEqual({ text: code, reasoning: null, refusal: null });
  });
});
