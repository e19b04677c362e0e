/**
 * The hint after an LLM call got no answer (issue #37): from OpenAI's own endpoint (OPENAI_BASE_URL
 * unset) the thing to check is this host's network access to it, not only OPENAI_BASE_URL.
 */
import { hintFor } from '../../../src/llm/classify-llm-error.js';
import { DEFAULT_BASE_URL } from '../../../src/llm/create-llm-client.js';

describe('hintFor a connection failure', () => {
  it('at the default endpoint: network access to it, or OPENAI_BASE_URL if another server is meant', () => {
    const hint = hintFor(undefined, 'gpt-4.1-mini', DEFAULT_BASE_URL);
    expect(hint).toContain('Check that this host can reach https://api.openai.com/v1');
    expect(hint).toContain('network access');
    expect(hint).toContain('or set OPENAI_BASE_URL if a local or other server is meant');
  });

  it('at a configured endpoint: OPENAI_BASE_URL', () => {
    expect(hintFor(undefined, 'm', 'http://127.0.0.1:11434/v1')).toBe(
      ' Check that OPENAI_BASE_URL points at a running server.',
    );
  });

  it('answers by status otherwise', () => {
    expect(hintFor(401, 'm', DEFAULT_BASE_URL)).toBe(' Check OPENAI_API_KEY.');
    expect(hintFor(500, 'm', DEFAULT_BASE_URL)).toBe('');
  });
});
