/**
 * The repository itself: its description, a collaborator's permission and its files through the
 * contents API (those a test set with `setFile`).
 */
import { repositoryJson, userJson } from '../repository-json.js';
import { NOT_FOUND, repoRoute, type Route } from '../route.js';
import type { FakeStore } from '../store.js';

/** The legacy `permission` GitHub reports beside `role_name`. */
const legacyPermission = (role: string): string =>
  role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;

export function repositoryRoutes(store: FakeStore): Route[] {
  return [
    repoRoute('GET', '', ({ owner, repo }) => ({
      status: 200,
      body: repositoryJson(store, `${owner}/${repo}`),
    })),
    repoRoute('GET', '/collaborators/([^/]+)/permission', ({ arg: login }) => {
      const role = store.roles.get(login) ?? store.options.defaultRole ?? 'read';
      return {
        status: 200,
        body: { permission: legacyPermission(role), role_name: role, user: userJson(login) },
      };
    }),
    repoRoute('GET', '/contents/(.+)', ({ arg: path }) => {
      const text = store.files.get(path);
      if (text === undefined) return NOT_FOUND;
      const content = Buffer.from(text).toString('base64');
      return { status: 200, body: { type: 'file', encoding: 'base64', path, content } };
    }),
  ];
}
