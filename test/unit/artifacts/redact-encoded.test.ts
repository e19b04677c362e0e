/**
 * Issue #11: a validation command read the worker's environment and printed it base64-encoded;
 * redaction missed it and the PR body carried the private key. Each test encodes the secrets the
 * way a command could (with the real `base64`/`basenc` where it matters) and checks the result.
 */
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { createRedactor } from '../../../src/artifacts/redact.js';

const { privateKey: pem } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const openaiKey = 'sk-proj-Zq7XfLp2Vb9Nc4Hs8Kd1Rt6Yw3Jm5Ga0';
const webhookSecret = 'whs3cr3t-with spaces&symbols/+=';
const adminPassword = 'hunter2-admin';
const installationToken = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a';
const secrets = [pem, openaiKey, webhookSecret, adminPassword, installationToken];

/** The worker's environment as `/proc/<pid>/environ` holds it; `first` shifts every offset. */
function environ(first: string, key = pem): Buffer {
  return Buffer.from(
    `${first}=1\0PRIVATE_KEY=${key}\0OPENAI_API_KEY=${openaiKey}\0` +
      `WEBHOOK_SECRET=${webhookSecret}\0ADMIN_PASSWORD=${adminPassword}\0` +
      `GITHUB_TOKEN=${installationToken}\0HOME=/root\0`,
  );
}
const OFFSETS = ['A', 'AB', 'ABC']; // the secrets start at each offset mod 3

function shell(command: string, args: string[], input: Buffer): string {
  return execFileSync(command, args, { input }).toString('utf8');
}

function wrap(text: string, width: number, eol = '\n'): string {
  return (text.match(new RegExp(`.{1,${width}}`, 'gs')) ?? []).join(eol);
}

/** No secret, and no secret in any base64/hex/percent decoding of what is left. */
function expectNoSecret(out: string): void {
  const texts = [out];
  for (const run of out.match(/[A-Za-z0-9+/=_\-\r\n]{8,}/g) ?? []) {
    const joined = run.replace(/\s+/g, '');
    for (let skip = 0; skip < 4; skip++) {
      texts.push(Buffer.from(joined.slice(skip), 'base64').toString('latin1'));
    }
    if (/^[0-9a-f]+$/i.test(joined)) texts.push(Buffer.from(joined, 'hex').toString('latin1'));
  }
  for (const token of out.split(/\s+/)) {
    try {
      texts.push(decodeURIComponent(token.replace(/\+/g, ' ')));
    } catch {
      // not percent-encoded
    }
  }
  const pemLines = pem.split('\n').filter((l) => l.length === 64);
  for (const text of texts) {
    for (const secret of [openaiKey, webhookSecret, adminPassword, installationToken])
      expect(text).not.toContain(secret);
    for (const line of pemLines) expect(text).not.toContain(line);
  }
}

describe('redaction of encoded secrets', () => {
  const redact = createRedactor(secrets);

  it.each(OFFSETS)('masks the environment as `base64 -w0` prints it (first var %s)', (first) => {
    const encoded = shell('base64', ['-w0'], environ(first));
    const out = redact(`env: ${encoded}\n[exit 0]`);
    expect(out).toBe('env: ****(base64 of a secret)\n[exit 0]');
  });

  it.each(OFFSETS)('masks the environment as `base64` wraps it at 76 (first var %s)', (first) => {
    const encoded = shell('base64', [], environ(first));
    expect(encoded.split('\n')[0]).toHaveLength(76);
    const out = redact(`$ base64 /proc/$PPID/environ\n${encoded}[exit 0]`);
    expect(out).toBe('$ base64 /proc/$PPID/environ\n****(base64 of a secret)\n[exit 0]');
  });

  it.each(OFFSETS)('masks URL-safe base64 without padding (`basenc --base64url`, %s)', (first) => {
    const encoded = shell('basenc', ['--base64url', '-w0'], environ(first)).replace(/=+$/, '');
    expect(redact(`token=${encoded} next`)).toBe('****(base64 of a secret) next');
  });

  it('masks base64 wrapped at any width, with CRLF, indented, or as JSON-escaped breaks', () => {
    const encoded = environ('AB').toString('base64');
    expect(redact(`x ${wrap(encoded, 64, '\r\n')} y`)).toBe('x ****(base64 of a secret) y');
    expect(redact(`x ${wrap(encoded, 20, '\n    ')} y`)).toBe('x ****(base64 of a secret) y');
    expect(redact(`$ cat out\n${wrap(encoded, 7)}\n`)).toBe(
      '$ cat out\n****(base64 of a secret)\n',
    );
    const json = JSON.stringify({ stdout: wrap(encoded, 76) });
    expect(json).toContain('\\n');
    expect(redact(json)).toBe('{"stdout":"****(base64 of a secret)"}');
  });

  it('masks one secret base64-encoded in the middle of a larger blob, at every offset', () => {
    for (let pad = 0; pad < 3; pad++) {
      const blob = Buffer.concat([
        Buffer.alloc(100 + pad, 7),
        Buffer.from(openaiKey),
        Buffer.alloc(50, 9),
      ]).toString('base64');
      expect(redact(`data: ${blob}`)).toBe('data: ****(base64 of a secret)');
    }
  });

  it('masks the environment when the key holds literal \\n, as in a .env file', () => {
    const escaped = pem.trim().replace(/\n/g, '\\n');
    for (const first of OFFSETS) {
      expect(redact(environ(first, escaped).toString('base64'))).toBe('****(base64 of a secret)');
    }
    expect(redact(`PRIVATE_KEY=${escaped}`)).not.toContain('MII');
  });

  const hexByte = (x: number): string => x.toString(16).padStart(2, '0');
  it.each([
    ['encodeURIComponent', (b: Buffer) => encodeURIComponent(b.toString('utf8'))],
    [
      'lower-case escapes',
      (b: Buffer) =>
        encodeURIComponent(b.toString('utf8')).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    ],
    [
      'every byte as %XX',
      (b: Buffer) => [...b].map((x) => `%${hexByte(x).toUpperCase()}`).join(''),
    ],
    ['every byte as %xx', (b: Buffer) => [...b].map((x) => `%${hexByte(x)}`).join('')],
    ['form encoding', (b: Buffer) => new URLSearchParams({ env: b.toString('utf8') }).toString()],
  ])('masks the environment URL-encoded: %s', (_name, encode) => {
    const out = redact(`GET /collect?d=${encode(environ('A'))} HTTP/1.1`);
    expect(out).toBe('GET ****(URL-encoded secret) HTTP/1.1');
  });

  it('masks a secret with spaces form-encoded with + and no %XX', () => {
    const r = createRedactor(['correct horse battery staple']);
    expect(r('body: pw=correct+horse+battery+staple&x=1')).toBe('body: ****(URL-encoded secret)');
  });

  it.each(OFFSETS)(
    'masks hex, lower and upper case, joined and as `xxd -p` wraps it (%s)',
    (first) => {
      const hex = environ(first).toString('hex');
      expect(redact(`dump ${hex} end`)).toBe('dump ****(hex of a secret) end');
      expect(redact(`dump ${hex.toUpperCase()} end`)).toBe('dump ****(hex of a secret) end');
      expect(redact(`${wrap(hex, 60)}\n[exit 0]`)).toBe('****(hex of a secret)\n[exit 0]');
    },
  );

  it('masks one secret in hex', () => {
    const hex = Buffer.from(adminPassword).toString('hex');
    expect(redact(`pw: 00ff${hex}ff00.`)).toBe('pw: ****(hex of a secret).');
  });

  it('masks the body of the PEM key printed without its BEGIN/END lines', () => {
    const body = pem.trim().split('\n').slice(1, -1);
    expect(body[0]).toHaveLength(64);
    const joined = body.join('');
    // `sed '1d;$d' key.pem`: the body, line by line.
    expect(redact(`$ sed '1d;$d' key.pem\n${body.join('\n')}\n[exit 0]`)).toBe(
      `$ sed '1d;$d' key.pem\n****(part of a private key)\n[exit 0]`,
    );
    // Joined into one line, re-wrapped at 76, and one line of it alone.
    // (A `+` in the body also reads as form encoding of a secret with spaces: either mask.)
    expect(redact(`k=${joined};`)).toMatch(
      /^(\*{4}\(part of a private key\);|\*{4}\(URL-encoded secret\))$/,
    );
    expect(redact(wrap(joined, 76))).toBe('****(part of a private key)');
    expect(redact(`line 3 of the key: ${body[2]} (copied)`)).toBe(
      'line 3 of the key: ****(part of a private key) (copied)',
    );
    // The DER bytes the body encodes, as hex (`openssl pkey -outform DER | xxd -p`).
    const der = Buffer.from(joined, 'base64').toString('hex');
    expect(redact(wrap(der, 60))).toBe('****(hex of a secret)');
  });

  it('leaves nothing decodable behind in any of these encodings', () => {
    for (const first of OFFSETS) {
      const env = environ(first);
      expectNoSecret(redact(shell('base64', [], env)));
      expectNoSecret(redact(env.toString('base64url')));
      expectNoSecret(redact(env.toString('hex')));
      expectNoSecret(redact(encodeURIComponent(env.toString('utf8'))));
    }
  });

  it('keeps maskSecret output for a secret written out plainly', () => {
    expect(redact(`pw ${adminPassword} and ${webhookSecret}`)).toBe('pw ****in and ****+=');
  });

  it('recognises a secret added later in its encoded forms', () => {
    const r = createRedactor();
    r.add('late-token-987654321');
    expect(r(Buffer.from('x late-token-987654321 y').toString('base64'))).toBe(
      '****(base64 of a secret)',
    );
  });
});

describe('redaction leaves ordinary text alone', () => {
  const redact = createRedactor(secrets);

  /** Deterministic bytes that look random. */
  function noise(length: number): Buffer {
    const chunks: Buffer[] = [];
    let seed = Buffer.from('noise');
    while (chunks.length * 32 < length) {
      seed = createHash('sha256').update(seed).digest();
      chunks.push(seed);
    }
    return Buffer.concat(chunks).subarray(0, length);
  }

  it.each([
    ['a git sha', 'HEAD is now at 3f786850e387550fdab836ed7e6dc881de23001b fix: typo'],
    ['a UUID', 'request 123e4567-e89b-12d3-a456-426614174000 done'],
    [
      'a base64 PNG in a test fixture',
      'const img = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";',
    ],
    ['percent signs and escapes', 'progress 100% — GET /search?q=a%20b%2Fc+d 200'],
    ['a build log', 'PASS test/unit/a.test.ts (1.2 s)\n  ✓ works (3 ms)\n\nTests: 1 passed'],
  ])('does not mask %s', (_name, text) => {
    expect(redact(text)).toBe(text);
  });

  it('does not mask a large base64 blob, or its hex, that holds no secret', () => {
    const blob = noise(64 * 1024);
    const b64 = wrap(blob.toString('base64'), 76);
    expect(redact(b64)).toBe(b64);
    const hex = wrap(blob.toString('hex'), 60);
    expect(redact(hex)).toBe(hex);
  });

  it('does not mask another private key', () => {
    const { privateKey: other } = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const body = other.trim().split('\n').slice(1, -1).join('\n');
    expect(redact(body)).toBe(body);
  });
});
