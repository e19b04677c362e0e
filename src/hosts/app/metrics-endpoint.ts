import type { Registry } from 'prom-client';
import type { HttpHandler } from '../../http-handler.js';

/** Prometheus scrape endpoint: `GET /metrics`. */
export function metricsEndpoint(registry: Registry): HttpHandler {
  return async (req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') return false;
    const body = await registry.metrics();
    res.writeHead(200, { 'content-type': registry.contentType }).end(body);
    return true;
  };
}
