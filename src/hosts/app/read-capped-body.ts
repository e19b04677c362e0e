import type { IncomingMessage } from 'node:http';

export type CappedBody =
  { ok: true; body: Buffer } | { ok: false; reason: 'too-large' | 'aborted' };

/**
 * Reads a request body, keeping at most `maxBytes`. The byte count is what decides, not the
 * `content-length` header (a chunked body has none): past the cap the chunks read so far are
 * dropped and the request is paused, so the socket stops being read and the sender is held back
 * by TCP. The caller answers and closes the connection.
 */
export function readCappedBody(req: IncomingMessage, maxBytes: number): Promise<CappedBody> {
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: CappedBody): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAborted);
      req.off('close', onAborted);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        req.pause();
        chunks = [];
        finish({ ok: false, reason: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ ok: true, body: Buffer.concat(chunks, size) });
    // 'close' before 'end': the sender went away mid-body.
    const onAborted = (): void => finish({ ok: false, reason: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAborted);
    req.on('close', onAborted);
  });
}
