/**
 * What base64 of a secret looks like inside a larger encoded blob. Where the secret starts
 * relative to the blob's 3-byte groups (its offset mod 3) changes every character, and the
 * characters at either edge mix in bits of the neighbouring bytes; the characters in between
 * depend on the secret alone. Those "cores", for all three offsets and both alphabets, are what a
 * redactor can look for in any blob that contains the secret.
 */
export function base64Cores(bytes: Uint8Array): string[] {
  const cores = new Set<string>();
  for (const offset of [0, 1, 2]) {
    // Zero bytes before shift the secret to this offset; zero bytes after let the last
    // character that still lies wholly inside the secret be computed.
    const shifted = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(2)]);
    const encoded = shifted.toString('base64');
    // Character i holds bits [6i, 6i + 6); keep those wholly inside the secret's bits.
    const first = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    const core = encoded.slice(first, end);
    cores.add(core);
    cores.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...cores];
}
