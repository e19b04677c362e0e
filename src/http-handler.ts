import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request handler mounted on Probot's server; returns true when it answered the request. */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
