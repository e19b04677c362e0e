/**
 * Collects one output stream up to a byte limit, keeping the head (where a tool says what it
 * runs) and the tail (where it says what failed), with a visible marker where bytes were cut.
 * The stream is always read to its end so the process never blocks on a full pipe.
 */

/** How far back from a cut we look for a line break, so a cut does not split a line. */
const LINE_SNAP = 1024;

export class CappedOutput {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(maxBytes: number) {
    this.headLimit = Math.floor(maxBytes / 2);
    this.tailLimit = maxBytes - this.headLimit;
  }

  get totalBytes(): number {
    return this.total;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(this.headLimit - this.headBytes, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    // Drop whole chunks from the front while the rest still covers the tail limit.
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= this.tailLimit) {
      this.tailBytes -= this.tail.shift()!.length;
    }
  }

  toString(label = 'output'): string {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    if (tail.length > this.tailLimit) tail = tail.subarray(tail.length - this.tailLimit);
    const kept = head.length + tail.length;
    if (kept === this.total) return Buffer.concat([head, tail]).toString('utf8');

    // Snap both sides of the cut to line breaks: keeps lines whole (and a secret on a cut line
    // is dropped whole rather than left half-visible where the redactor cannot recognise it).
    const headEnd = head.lastIndexOf(0x0a);
    const headKept =
      headEnd >= 0 && headEnd >= head.length - LINE_SNAP ? head.subarray(0, headEnd + 1) : head;
    const tailStart = tail.indexOf(0x0a);
    const tailKept = tailStart >= 0 && tailStart < LINE_SNAP ? tail.subarray(tailStart + 1) : tail;
    const cut = this.total - headKept.length - tailKept.length;
    const marker = `\n[… autofix cut ${cut} bytes of ${label} (${this.total} bytes in all) …]\n`;
    return headKept.toString('utf8') + marker + tailKept.toString('utf8');
  }
}
