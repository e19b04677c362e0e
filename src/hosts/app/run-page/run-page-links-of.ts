/**
 * The run page's links from the settings: signed with a key derived from the webhook secret, under
 * PUBLIC_URL. Without a public URL nothing is printed (undefined): a wrong address is worse than
 * none. Without the webhook secret (a worker that was not given it) neither.
 */
import { createRunPageLinks, runPageKey, type RunPageLinks } from '../../../runs/run-page-link.js';

export function runPageLinksOf(settings: {
  publicUrl?: string | undefined;
  webhookSecret?: string | undefined;
}): RunPageLinks | undefined {
  if (!settings.publicUrl || !settings.webhookSecret) return undefined;
  return createRunPageLinks({
    baseUrl: settings.publicUrl,
    key: runPageKey(settings.webhookSecret),
  });
}

/** What `serve` checks at `/runs/<id>`: every link the key signed, whatever its base URL. */
export function runPageVerifier(webhookSecret: string): Pick<RunPageLinks, 'verify'> {
  return createRunPageLinks({ baseUrl: '', key: runPageKey(webhookSecret) });
}
