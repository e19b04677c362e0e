/**
 * The base64 body of a PEM private key, the part worth stealing: printed without its BEGIN/END
 * lines (`sed 1d`, `grep -v -- -----`), joined, or line by line, it is still the key.
 */
export interface PemBody {
  /** The body's base64, joined without line breaks. */
  joined: string;
  /** The body's lines as written (64 characters each in PEM). */
  lines: string[];
  /** The DER bytes the body encodes. */
  der: Buffer;
}

const PEM = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----([\s\S]*?)-----END [A-Z0-9 ]*PRIVATE KEY-----/;

export function pemBody(secret: string): PemBody | undefined {
  const inner = PEM.exec(secret)?.[1];
  if (inner === undefined) return undefined;
  // Keys from `.env` files often carry literal `\n` instead of line breaks.
  const lines = inner
    .split(/\\r\\n|\\n|\r?\n/)
    .map((line) => line.trim())
    // Legacy encrypted PEMs carry `Proc-Type:`/`DEK-Info:` headers: not part of the base64.
    .filter((line) => line.length > 0 && !line.includes(':'));
  const joined = lines.join('');
  if (!/^[A-Za-z0-9+/]+=*$/.test(joined)) return undefined;
  return { joined, lines, der: Buffer.from(joined, 'base64') };
}
