/**
 * The App's own endpoints: who the app is (`GET /app`) and installation tokens, which the fake
 * mints and then requires on every repository route.
 */
import { randomBytes } from 'node:crypto';
import { route, type Route } from '../route.js';
import type { FakeStore } from '../store.js';

const TOKEN_LIFETIME_MS = 3600_000;

export function appRoutes(store: FakeStore): Route[] {
  const { id, slug } = store.ownApp;
  return [
    route('POST', /^\/app\/installations\/(\d+)\/access_tokens$/, () => {
      const token = `ghs_${randomBytes(18).toString('hex')}`;
      store.tokens.add(token);
      const expires_at = new Date(Date.now() + TOKEN_LIFETIME_MS).toISOString();
      return { status: 201, body: { token, expires_at, permissions: {} } };
    }),
    route('GET', /^\/app$/, () => ({ status: 200, body: { id, slug, name: slug } })),
  ];
}
