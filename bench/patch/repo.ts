import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

export interface ProcResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program with stdin, no shell, killed after `timeoutMs`. Synchronous on purpose: from a
 * large Node process spawnSync costs half of what an async spawn does, and the anchors and the
 * corpus builder are nearly all process start-up.
 */
export function run(
  cmd: string,
  args: readonly string[],
  cwd: string,
  input = '',
  timeoutMs = 15000,
): Promise<ProcResult> {
  const r = spawnSync(cmd, args, {
    cwd,
    input,
    timeout: timeoutMs,
    env: { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return Promise.resolve({
    code: r.status ?? -1,
    stdout: r.stdout?.toString('utf8') ?? '',
    stderr: r.stderr?.toString('utf8') ?? '',
  });
}

export async function writeTree(
  dir: string,
  files: ReadonlyMap<string, string | undefined>,
): Promise<void> {
  for (const [path, content] of files) {
    const abs = join(dir, path);
    if (content === undefined) await rm(abs, { force: true });
    else {
      await mkdir(dirname(abs), { recursive: true });
      await writeFile(abs, content);
    }
  }
}

async function listFiles(dir: string, root = dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name === '.git') continue;
    const abs = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(abs, root)));
    else out.push(relative(root, abs));
  }
  return out;
}

/** Current tree (every file but .git) as path → content. */
export async function readTree(dir: string): Promise<Map<string, string>> {
  const tree = new Map<string, string>();
  for (const path of await listFiles(dir)) tree.set(path, await readFile(join(dir, path), 'utf8'));
  return tree;
}

/** Puts the work tree back to exactly `original`: stray files (.rej, .orig, created) removed. */
export async function resetTree(dir: string, original: ReadonlyMap<string, string>): Promise<void> {
  for (const path of await listFiles(dir)) {
    const want = original.get(path);
    if (want === undefined) await unlink(join(dir, path));
    else if ((await readFile(join(dir, path), 'utf8')) !== want)
      await writeFile(join(dir, path), want);
  }
  for (const [path, content] of original) {
    const abs = join(dir, path);
    const has = await readFile(abs, 'utf8').catch(() => undefined);
    if (has !== content) {
      await mkdir(dirname(abs), { recursive: true });
      await writeFile(abs, content);
    }
  }
}
