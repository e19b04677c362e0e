/**
 * The App's webhook deliveries on GitHub, as the missed-delivery reconciler
 * (`reconcile-deliveries.ts`) reaches them: the listing (`GET /app/hook/deliveries`, App JWT,
 * newest first, paged by cursor) and the redelivery request
 * (`POST /app/hook/deliveries/{id}/attempts`).
 */

/** One attempt as GitHub lists it (fields the reconciler reads). */
export interface HookDelivery {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
}

/** The two App endpoints, as the reconciler needs them. */
export interface HookDeliveriesApi {
  /** One page, newest first, and the cursor of the next page (undefined on the last). */
  list(cursor: string | undefined): Promise<{ deliveries: HookDelivery[]; next?: string }>;
  /** Asks GitHub to redeliver that attempt (202). */
  redeliver(deliveryId: number): Promise<void>;
}

/** What of an Octokit the adapter uses (an App-authenticated one: these endpoints need the JWT). */
export interface AppOctokit {
  request(
    route: string,
    parameters?: Record<string, unknown>,
  ): Promise<{ data: unknown; headers: { link?: string | undefined } }>;
}

export const PER_PAGE = 100;

/** The `cursor` parameter of the `rel="next"` link, if any. */
export function nextCursor(link: string | undefined): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (!m) continue;
    try {
      return new URL(m[1]!, 'https://api.github.com').searchParams.get('cursor') ?? undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function octokitHookDeliveries(
  octokit: AppOctokit,
  signal?: AbortSignal,
): HookDeliveriesApi {
  const request = signal ? { request: { signal } } : {};
  return {
    async list(cursor) {
      const res = await octokit.request('GET /app/hook/deliveries', {
        per_page: PER_PAGE,
        ...(cursor ? { cursor } : {}),
        ...request,
      });
      return {
        deliveries: res.data as HookDelivery[],
        ...(nextCursor(res.headers.link) ? { next: nextCursor(res.headers.link)! } : {}),
      };
    },
    async redeliver(deliveryId) {
      await octokit.request('POST /app/hook/deliveries/{delivery_id}/attempts', {
        delivery_id: deliveryId,
        ...request,
      });
    },
  };
}
