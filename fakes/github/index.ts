/**
 * A fake GitHub REST API over real HTTP, for `autofix demo --app` and for the tests and
 * benchmarks that run the app in-process or as a child process (nock cannot reach those);
 * test/helpers/fake-github.ts re-exports it. Point the app at it with
 * `GHE_HOST=127.0.0.1:<port> GHE_PROTOCOL=http` (Probot's baseUrl becomes `<url>/api/v3`).
 * It keeps just enough state for the paths the app uses (`store.ts`, one route module per area
 * in `routes/`), answers with the fields GitHub documents that the app reads, records every
 * request, checks that app endpoints carry a JWT signed by the app key and the others an
 * installation token it minted, and can fail chosen requests (e.g. 502 once).
 */
export { startFakeGitHub } from './start-fake-github.js';
export type * from './types.js';
export type {
  FakeDeliveryAttempt,
  FakeDeliverySpec,
  FakeHookDeliveries,
  FakeRedeliveryRequest,
} from './hook-deliveries.js';
