/**
 * The scripted OpenAI-compatible server of `autofix demo` (src/demo/scripted-llm-server.ts),
 * under the names the tests use: one definition for the product and the tests.
 */
export * from '../../src/demo/scripted-llm-server.js';
export {
  startScriptedLlmServer as startFakeLlmServer,
  type ScriptedLlmServer as FakeLlmServer,
  type ScriptedLlmServerOptions as FakeLlmServerOptions,
} from '../../src/demo/scripted-llm-server.js';
