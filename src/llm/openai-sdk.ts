/** The `openai` SDK client the LLM client sends through, with nothing read from the environment. */
import OpenAI from 'openai';

/**
 * Every option the SDK would otherwise read from process.env is set explicitly, and its own
 * retries are off: the client's retry loop (`with-retries.ts`) decides attempts and waits.
 */
export function createOpenAiSdk(
  baseUrl: string,
  apiKey: string | undefined,
  timeoutMs: number,
): OpenAI {
  return new OpenAI({
    baseURL: baseUrl,
    apiKey: apiKey ?? 'unused',
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    timeout: timeoutMs,
    maxRetries: 0,
    logLevel: 'off',
    // Without a key, send no Authorization header at all rather than a placeholder.
    ...(apiKey ? {} : { defaultHeaders: { Authorization: null } }),
  });
}
