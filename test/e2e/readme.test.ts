/**
 * The README's `autofix` examples, run as written: every command of a ```sh block (continuation
 * lines joined) that starts with `autofix` and holds no placeholder (`DIR`, `[--flag]`, `<x>`,
 * `…`; those are synopses) runs from a fresh directory
 * with `autofix` on PATH (what `npm run up` links), and must exit 0. A README that promises a
 * command the CLI does not have, or an example that needs setup the README does not give, fails.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, cleanEnv, REPO_ROOT } from '../helpers/cli.js';
import { underLoad } from '../helpers/deadlines.js';

/** `autofix …` lines of the README's sh blocks that can run as written, comments removed. */
export function runnableExamples(readme: string): string[] {
  const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? '');
  return blocks
    .flatMap((block) => block.replace(/\\\n\s*/g, ' ').split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => /^autofix(\s|$)/.test(line))
    .filter((line) => !/[[\]<>…|]|\b[A-Z]{2,}\b/.test(line));
}

let bin: string;
let cwd: string;

beforeAll(() => {
  bin = mkdtempSync(join(tmpdir(), 'autofix-readme-bin-'));
  cwd = mkdtempSync(join(tmpdir(), 'autofix-readme-cwd-'));
  // What `npm link` gives: an `autofix` executable on PATH.
  writeFileSync(join(bin, 'autofix'), `#!/bin/sh\nexec node ${JSON.stringify(CLI)} "$@"\n`);
  chmodSync(join(bin, 'autofix'), 0o755);
});

afterAll(() => {
  rmSync(bin, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

const examples = runnableExamples(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));

describe("the README's autofix examples, as written", () => {
  it('has some (the quick start shows the demo)', () => {
    expect(examples).toEqual(expect.arrayContaining(['autofix demo', 'autofix --help']));
  });

  it.each(examples)(
    '`%s` exits 0 from any directory',
    async (line) => {
      const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = execFile(
          'sh',
          ['-c', line],
          {
            cwd,
            env: { ...cleanEnv(), PATH: `${bin}:${process.env.PATH ?? ''}` },
            timeout: underLoad(120_000),
            maxBuffer: 16 * 1024 * 1024,
          },
          (_err, stdout, stderr) => resolve({ code: child.exitCode, out: `${stdout}\n${stderr}` }),
        );
      });
      if (result.code !== 0) throw new Error(`\`${line}\` exited ${result.code}:\n${result.out}`);
    },
    underLoad(150_000),
  );
});
