/**
 * The logger censors credential headers wherever a request or response is logged with its
 * headers (pino-http binds `req` to a child logger and logs `res` with the line).
 */
import { Writable } from 'node:stream';
import { createLogger } from '../../../../src/logger.js';

function capture(): { destination: Writable; lines: () => Record<string, unknown>[] } {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    destination,
    lines: () =>
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('createLogger', () => {
  it('censors authorization, cookie, set-cookie and x-hub-signature headers by name', () => {
    const out = capture();
    const log = createLogger({ level: 'info', destination: out.destination });
    log
      .child({ name: 'http' })
      .child({
        req: {
          method: 'GET',
          headers: {
            authorization: 'Basic YWRtaW46aHVudGVyMg==',
            'proxy-authorization': 'Basic cHJveHk6cHc=',
            cookie: 'session=abc123',
            'x-hub-signature': 'sha1=deadbeef',
            'x-hub-signature-256': 'sha256=feedface',
            'x-github-delivery': 'kept-as-is',
          },
        },
      })
      .info({ res: { statusCode: 200, headers: { 'set-cookie': ['id=xyz; HttpOnly'] } } }, 'done');
    const [line] = out.lines();
    expect(line).toMatchObject({
      req: {
        headers: {
          authorization: '[redacted]',
          'proxy-authorization': '[redacted]',
          cookie: '[redacted]',
          'x-hub-signature': '[redacted]',
          'x-hub-signature-256': '[redacted]',
          'x-github-delivery': 'kept-as-is',
        },
      },
      res: { statusCode: 200, headers: { 'set-cookie': '[redacted]' } },
    });
    expect(JSON.stringify(line)).not.toMatch(/YWRtaW46aHVudGVyMg|abc123|deadbeef|feedface|xyz/);
  });

  it('leaves requests without those headers alone', () => {
    const out = capture();
    createLogger({ level: 'info', destination: out.destination }).info(
      { req: { headers: { accept: '*/*' } } },
      'plain',
    );
    expect(out.lines()[0]).toMatchObject({ req: { headers: { accept: '*/*' } }, msg: 'plain' });
    expect(JSON.stringify(out.lines()[0])).not.toContain('redacted');
  });
});
