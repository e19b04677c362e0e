/**
 * Starts the fake GitHub: the store, one list of routes per area, the faults and the server that
 * mounts them, and the handle a test or the demo holds.
 */
import { createAuthorizer } from './auth.js';
import { createFaults, matches } from './faults.js';
import { createHookDeliveries } from './hook-deliveries.js';
import { appRoutes } from './routes/app.js';
import { checkRoutes } from './routes/checks.js';
import { gitRoutes } from './routes/git.js';
import { hookRoutes } from './routes/hooks.js';
import { issueRoutes } from './routes/issues.js';
import { pullRoutes } from './routes/pulls.js';
import { repositoryRoutes } from './routes/repository.js';
import { listenFake } from './server.js';
import { createStore, type FakeStore } from './store.js';
import type { FakeGitHub, FakeGitHubArrange, FakeGitHubOptions } from './types.js';

/** What a test arranges, written into the store. */
function arrange(store: FakeStore): FakeGitHubArrange {
  return {
    setPermission: (login, role) => void store.roles.set(login, role),
    setFile(path, content) {
      if (content === undefined) store.files.delete(path);
      else store.files.set(path, content);
    },
    setIssue: (number, title, body) => void store.issues.set(number, { title, body }),
    addPull: store.addPull,
    addReviewNote: store.addReviewNote,
    addCheckRun: store.addCheckRun,
    setRepoReader: (reader) => void (store.repoReader = reader),
    setRequiredChecks: (branch, contexts) => void store.requiredChecks.set(branch, contexts),
  };
}

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const store = createStore(options);
  const hooks = createHookDeliveries();
  const faults = createFaults();
  const routes = [
    ...appRoutes(store),
    ...repositoryRoutes(store),
    ...gitRoutes(store),
    ...issueRoutes(store),
    ...pullRoutes(store),
    ...checkRoutes(store),
    ...hookRoutes(store, hooks),
  ];
  const authorized = createAuthorizer(options.appPublicKey, store.tokens);
  const { server, port } = await listenFake({
    routes,
    faults,
    authorized,
    requests: store.requests,
  });
  const host = `127.0.0.1:${port}`;
  store.base = `http://${host}`;
  const { requests, comments, pulls, labels, tokens, checkRuns, botLogin } = store;
  return {
    port,
    host,
    apiUrl: `${store.base}/api/v3`,
    env: { GHE_HOST: host, GHE_PROTOCOL: 'http' },
    botLogin,
    requests,
    comments,
    pulls,
    labels,
    tokens,
    checkRuns,
    calls: (method, path) => requests.filter((r) => r.method === method && matches(path, r.path)),
    failNext: (...args) => faults.failNext(...args),
    disruptNext: (disruption) => faults.disruptNext(disruption),
    interceptNext: (...args) => faults.interceptNext(...args),
    ...arrange(store),
    ...hooks.api,
    async close() {
      await hooks.close();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
