/**
 * WEBHOOK_PROXY_URL: a smee.io-style channel (https://smee.io/new) that relays GitHub's webhooks
 * to a server GitHub cannot reach (local development). Read here because only src/config reads
 * the environment; `.env` (loaded by `serve` before this is read) may hold it too, as Probot's
 * setup flow writes it there.
 */
import { AutofixError } from '../errors.js';

export function webhookProxyUrl(
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  const value = env.WEBHOOK_PROXY_URL?.trim();
  if (!value) return undefined;
  const protocol = URL.canParse(value) ? new URL(value).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new AutofixError(
      'CONFIG_INVALID',
      'WEBHOOK_PROXY_URL: must be an http or https URL (a channel from https://smee.io/new)',
      { recoverable: false },
    );
  }
  return value;
}

/**
 * Probot's setup app creates a public smee.io channel by itself (and writes it to `.env`) unless
 * NO_SMEE_SETUP=true; without smee-client installed it only warns "SmeeClient is not available"
 * beside Autofix's own start-up line. A channel is the operator's choice (WEBHOOK_PROXY_URL,
 * relayed by hosts/app/webhook-relay.ts): setup mode turns Probot's off.
 */
export function turnOffProbotChannelSetup(
  env: Record<string, string | undefined> = process.env,
): void {
  env.NO_SMEE_SETUP = 'true';
}
