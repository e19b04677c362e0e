/**
 * The App's webhook deliveries (`/app/hook/deliveries`): listed newest first a page at a time
 * (an opaque cursor in the `link` header), and redelivered on request.
 */
import type { HookDeliveryLog } from '../hook-deliveries.js';
import { NOT_FOUND, perPage, route, type Route } from '../route.js';
import type { FakeStore } from '../store.js';

const HOOK_DELIVERIES_PER_PAGE_MAX = 100;

export function hookRoutes(store: FakeStore, hooks: HookDeliveryLog): Route[] {
  return [
    route('GET', /^\/app\/hook\/deliveries$/, (_, req) => {
      const size = perPage(req, HOOK_DELIVERIES_PER_PAGE_MAX);
      // The cursor is opaque to clients; here `v1_<id>` = the attempts older than that id.
      const before = /^v1_(\d+)$/.exec(req.query.cursor ?? '')?.[1];
      if (req.query.cursor !== undefined && !before)
        return { status: 400, body: { message: 'Invalid cursor' } };
      const newestFirst = [...hooks.api.deliveries]
        .reverse()
        .filter((d) => before === undefined || d.id < Number(before));
      const page = newestFirst.slice(0, size);
      const last = page.at(-1);
      if (newestFirst.length <= size || !last) return { status: 200, body: page };
      const next = `${store.base}/api/v3/app/hook/deliveries?per_page=${size}&cursor=v1_${last.id}`;
      return { status: 200, body: page, headers: { link: `<${next}>; rel="next"` } };
    }),
    route('POST', /^\/app\/hook\/deliveries\/(\d+)\/attempts$/, (id) =>
      hooks.redeliver(Number(id)) ? { status: 202, body: {} } : NOT_FOUND,
    ),
  ];
}
