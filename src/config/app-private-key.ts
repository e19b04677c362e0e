/**
 * The GitHub App's private key, decoded at start (issue #37): a PEM-shaped but corrupt key (cut
 * short when pasted, a line lost) passed `readSettings`'s shape check, and `serve` took webhooks
 * until the first GitHub call failed deep in a run. `serve` and `worker` refuse to start instead,
 * naming the variable that holds the key.
 */
import { createPrivateKey } from 'node:crypto';
import { AutofixError } from '../errors.js';
import type { Settings } from './env.js';

const FIX =
  "Give the whole .pem file GitHub generated (the App's settings page → Private keys → " +
  'Generate a private key), every line from -----BEGIN to -----END.';

/** Throws CONFIG_INVALID when the key set does not decode as an RSA private key. */
export function assertAppPrivateKey(
  settings: Pick<Settings, 'privateKey' | 'privateKeyPath'>,
): void {
  const { privateKey, privateKeyPath } = settings;
  if (!privateKey) return;
  const where = privateKeyPath ? `PRIVATE_KEY_PATH (${privateKeyPath})` : 'PRIVATE_KEY';
  let problem: string | undefined;
  try {
    const key = createPrivateKey(privateKey);
    if (key.asymmetricKeyType !== 'rsa') {
      problem = `holds a ${String(key.asymmetricKeyType)} key, not an RSA key: GitHub Apps sign with RSA`;
    }
  } catch (err) {
    const reason = (err as Error).message.replace(/^error:[0-9A-F]+:/, '');
    problem = `does not decode as a private key: cut short or corrupted? (OpenSSL: ${reason})`;
  }
  if (!problem) return;
  throw new AutofixError('CONFIG_INVALID', `${where} ${problem}. ${FIX}`, {
    details: { variable: privateKeyPath ? 'PRIVATE_KEY_PATH' : 'PRIVATE_KEY' },
  });
}
