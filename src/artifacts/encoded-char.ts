/** Characters of standard and URL-safe base64 (hex is a subset), padding included. */
const TABLE = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-')
  TABLE[c.charCodeAt(0)] = 1;

/** True for a UTF-16 code unit of the base64/hex alphabets (a table lookup: it runs per character). */
export function isEncodedChar(code: number): boolean {
  return code < 128 && TABLE[code] === 1;
}
