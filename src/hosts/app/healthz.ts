import type { HttpHandler } from '../../http-handler.js';

/** Liveness for the container HEALTHCHECK and load balancers. */
export const healthz: HttpHandler = (req, res) => {
  if (req.method !== 'GET' || req.url?.split('?')[0] !== '/healthz') return false;
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
  return true;
};
