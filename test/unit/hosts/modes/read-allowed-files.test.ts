import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MAX_CONTEXT_BYTES,
  readAllowedFiles,
} from '../../../../src/hosts/modes/work-order/read-allowed-files.js';

const sha = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'autofix-allowed-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readAllowedFiles', () => {
  it('hashes every allowed file, missing ones as empty bytes', async () => {
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    const { allowed } = await readAllowedFiles(dir, {
      allowed_files: ['a.txt', 'new.txt'],
      context_files: [],
    });
    expect(allowed).toEqual([
      { path: 'a.txt', exists: true, sha256: sha('a\n') },
      { path: 'new.txt', exists: false, sha256: sha('') },
    ]);
  });

  it('cuts the context at 200 KB in total, in the work order order', async () => {
    writeFileSync(join(dir, 'big.txt'), 'x'.repeat(150 * 1024));
    writeFileSync(join(dir, 'second.txt'), 'y'.repeat(100 * 1024));
    writeFileSync(join(dir, 'third.txt'), 'z\n');
    const order = {
      allowed_files: ['big.txt', 'second.txt', 'third.txt', 'gone.txt'],
      context_files: ['big.txt', 'second.txt', 'third.txt', 'gone.txt'],
    };
    const { context } = await readAllowedFiles(dir, order);
    expect(context.map((c) => [c.path, c.content?.length, c.truncated])).toEqual([
      ['big.txt', 150 * 1024, false],
      ['second.txt', MAX_CONTEXT_BYTES - 150 * 1024, true],
      ['third.txt', 0, true],
      ['gone.txt', undefined, false],
    ]);
    expect(context[3]!.note).toBe('does not exist yet');
    expect(await readAllowedFiles(dir, order)).toEqual(await readAllowedFiles(dir, order));
  });

  it('does not show binary files', async () => {
    writeFileSync(join(dir, 'img.bin'), Buffer.from([1, 0, 2]));
    const { context } = await readAllowedFiles(dir, {
      allowed_files: ['img.bin'],
      context_files: ['img.bin'],
    });
    expect(context[0]).toMatchObject({ note: 'binary file, not shown' });
  });
});
