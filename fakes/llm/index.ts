/** The scripted OpenAI-compatible LLM server (`scripted-llm-server.ts`) and its types. */
export { startScriptedLlmServer } from './scripted-llm-server.js';
export type * from './types.js';
