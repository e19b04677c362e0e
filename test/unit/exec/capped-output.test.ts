import { CappedOutput } from '../../../src/exec/capped-output.js';

describe('CappedOutput', () => {
  it('keeps output under the limit unchanged', () => {
    const out = new CappedOutput(100);
    out.push(Buffer.from('hello\n'));
    out.push(Buffer.from('world\n'));
    expect(out.toString()).toBe('hello\nworld\n');
    expect(out.totalBytes).toBe(12);
  });

  it('keeps the head and the tail and marks the cut on line boundaries', () => {
    const out = new CappedOutput(4000);
    for (let i = 0; i < 10_000; i++) out.push(Buffer.from(`line ${i}\n`));
    const text = out.toString('stdout');
    expect(text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(text.endsWith('line 9998\nline 9999\n')).toBe(true);
    expect(text).toMatch(/\[… autofix cut \d+ bytes of stdout \(\d+ bytes in all\) …\]/);
    expect(text.length).toBeLessThan(4200);
    // Every kept line is whole.
    for (const line of text.split('\n').filter((l) => l && !l.startsWith('[')))
      expect(line).toMatch(/^line \d+$/);
  });

  it('counts every byte even when chunks are huge', () => {
    const out = new CappedOutput(1000);
    out.push(Buffer.alloc(5_000_000, 'a'));
    out.push(Buffer.from('\nthe end\n'));
    expect(out.totalBytes).toBe(5_000_009);
    expect(out.toString()).toContain('the end');
  });
});
