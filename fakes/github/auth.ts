/**
 * Who may call what: app endpoints (`/app…`) take a JWT signed by the app's key (any JWT when the
 * fake has no key), every other endpoint an installation token the fake minted.
 */
import { verify, type KeyObject } from 'node:crypto';
import type { RecordedRequest } from './types.js';

function verifyJwt(token: string, key: KeyObject | string): boolean {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return false;
  return verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    key,
    Buffer.from(signature, 'base64url'),
  );
}

export function createAuthorizer(
  appPublicKey: KeyObject | string | undefined,
  tokens: Set<string>,
): (req: RecordedRequest) => boolean {
  return (req) => {
    const auth = String(req.headers.authorization ?? '');
    // The log download a job-log redirect points at carries its own (here: no) credentials.
    if (req.path.startsWith('/_job-logs/')) return true;
    if (req.path.startsWith('/app')) {
      const jwt = /^bearer (.+)$/i.exec(auth)?.[1];
      return !!jwt && (!appPublicKey || verifyJwt(jwt, appPublicKey));
    }
    const token = /^token (.+)$/i.exec(auth)?.[1];
    return !!token && tokens.has(token);
  };
}
