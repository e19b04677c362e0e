/**
 * The scripted OpenAI-compatible server of `autofix demo` (fakes/llm/),
 * under the names the tests use: one definition for the product and the tests.
 */
export * from '../../fakes/llm/index.js';
export {
  startScriptedLlmServer as startFakeLlmServer,
  type ScriptedLlmServer as FakeLlmServer,
  type ScriptedLlmServerOptions as FakeLlmServerOptions,
} from '../../fakes/llm/index.js';
