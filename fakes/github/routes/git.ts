/**
 * Branches: the commit a branch points at (from the repository reader a test wires in) and its
 * protection's required status checks; rulesets are none (GitHub then answers an empty list).
 * The fake serves no git over HTTP: clones go to the real (bare) repository a payload names.
 */
import { repoRoute, type Route } from '../route.js';
import type { FakeStore } from '../store.js';

function protectionJson(contexts: string[] | undefined): Record<string, unknown> {
  if (contexts === undefined) return { protected: false };
  return {
    protected: true,
    protection: {
      enabled: true,
      required_status_checks: {
        enforcement_level: 'non_admins',
        contexts,
        checks: contexts.map((context) => ({ context, app_id: null })),
      },
    },
  };
}

export function gitRoutes(store: FakeStore): Route[] {
  return [
    repoRoute('GET', '/branches/([^/]+)', ({ arg: branch }) => ({
      status: 200,
      body: {
        name: branch,
        commit: { sha: store.repoReader?.refSha(branch) ?? '' },
        ...protectionJson(store.requiredChecks.get(branch)),
      },
    })),
    repoRoute('GET', '/rules/branches/([^/]+)', () => ({ status: 200, body: [] })),
  ];
}
