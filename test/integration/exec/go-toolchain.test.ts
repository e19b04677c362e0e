/**
 * Go in the real sandbox with the caches as the code workspace binds them (exec/toolchains/):
 * `setup` downloads a module into the repository's cache, `validate` (no network, `GOPROXY=off`)
 * builds against that cache read-only with a build cache of its own, and a wrong `go` directive
 * becomes a warning line. The module comes from a file-based GOPROXY inside the worktree (no
 * network here; bench/toolchains/go-module.ts), removed after setup, so validate can only find it
 * in the cache.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_REPO_CONFIG, type RepoConfig } from '../../../src/config/repo-config.js';
import { runValidation, type ValidationOptions } from '../../../src/exec/run-validation.js';
import { basicSandboxPolicy } from '../../../src/exec/sandbox-policy.js';
import {
  buildCacheDir,
  setupCache,
  validateCache,
} from '../../../src/pipeline/code/code-workspace.js';
import { toolchainWarnings } from '../../../src/pipeline/code/toolchain-warnings.js';
import { createGoModuleRepo, type GoModuleRepo } from '../../../bench/toolchains/go-module.js';

const run = promisify(execFile);
const config = (over: Partial<RepoConfig>): RepoConfig => ({
  ...DEFAULT_REPO_CONFIG,
  env_passthrough: ['GOPROXY', 'GONOSUMDB'],
  ...over,
});

describe('Go in the sandbox: module cache from setup, read-only in validate', () => {
  let job: string;
  let repo: GoModuleRepo;
  let worktree: string;
  let home: string;
  let tmp: string;
  let cacheDir: string;

  beforeAll(async () => {
    job = await realpath(await mkdtemp(join(tmpdir(), 'autofix-go-job-')));
    [worktree, home, tmp, cacheDir] = ['wt', 'home', 'tmp', 'caches/repo'].map((d) =>
      join(job, d),
    ) as [string, string, string, string];
    for (const dir of [worktree, home, tmp, cacheDir]) await mkdir(dir, { recursive: true });
    await mkdir(buildCacheDir(tmp), { recursive: true });
    repo = await createGoModuleRepo(worktree, join(job, 'host-go'));
  }, 120_000);

  afterAll(async () => {
    await rm(job, { recursive: true, force: true });
  });

  const options = (over: Partial<ValidationOptions> = {}): ValidationOptions => ({
    sandbox: basicSandboxPolicy('bwrap'),
    home,
    tmpDir: tmp,
    baseEnv: { ...process.env, ...repo.proxyEnv },
    setupCache: setupCache(home, cacheDir, 'bwrap'),
    // Asked after setup: it binds the folders setup made.
    validateCache: () => validateCache(cacheDir, tmp, 'bwrap'),
    ...over,
  });

  it('downloads in setup, then validates offline from the read-only cache: fails on the base, passes with the fix', async () => {
    // One run, setup then validate, on an empty cache: validate binds what this setup made.
    const base = await runValidation(
      config({ setup: ['go mod download -x'], validate: ['go test ./...'] }),
      worktree,
      options(),
    );
    expect(base.results.map((r) => [r.exit_code, r.sandboxed])).toEqual([
      [0, true],
      [1, true],
    ]);
    expect(base.results[1]!.stdout).toMatch(/--- FAIL: TestSum/);
    // From now on only the cache has the module (validate's GOPROXY=off ignores it anyway).
    await rm(join(worktree, '.proxy'), { recursive: true, force: true });

    await repo.fix();
    const fixed = await runValidation(config({ validate: ['go test ./...'] }), worktree, options());
    expect(fixed.results.map((r) => [r.exit_code, r.stderr])).toEqual([[0, '']]);
    expect(fixed.results[0]!.stdout).toMatch(/^ok\s+example\.com\/calc/m);

    // Without the read-only cache, validate has nowhere to find the module (the defence's reason).
    const bare = await runValidation(config({ validate: ['go test ./...'] }), worktree, {
      ...options(),
      validateCache: () => ({ binds: [], env: { GOPROXY: 'off', GOTOOLCHAIN: 'local' } }),
    });
    expect(bare.passed).toBe(false);
    expect(bare.results[0]!.stderr).toMatch(/example\.com\/greet/);
  }, 180_000);

  it("keeps the module cache read-only in validate, and the job's build cache writable across commands", async () => {
    // What else a setup command leaves in the repository's cache (npm's, a credential) stays out.
    await mkdir(join(cacheDir, 'npm'), { recursive: true });
    await writeFile(join(cacheDir, 'npm', '_authToken'), 'planted');
    const probe = [
      `sh -c 'touch "$GOMODCACHE/planted" 2>/dev/null && echo modcache-writable || echo modcache-read-only'`,
      `sh -c 'ls /tmp/autofix-setup-cache /tmp/autofix-setup-cache/go/pkg | tr "\\n" " "'`,
      `sh -c 'mkdir -p "$GOCACHE" && touch "$GOCACHE/x" && echo gocache-writable'`,
      // The next command (a fresh /tmp) finds it: the build cache is the job's, not the command's.
      `sh -c 'test -f "$GOCACHE/x" && echo gocache-kept'`,
      // Go < 1.21 has no GOTOOLCHAIN of its own to print; Go ≥ 1.21 reads it and never downloads.
      `sh -c 'echo "$GOTOOLCHAIN $GOPROXY"'`,
      'go env GOPROXY',
    ];
    const result = await runValidation(config({ validate: probe }), worktree, options());
    expect(result.results.map((r) => r.stdout.trim())).toEqual([
      'modcache-read-only',
      '/tmp/autofix-setup-cache: go  /tmp/autofix-setup-cache/go/pkg: mod',
      'gocache-writable',
      'gocache-kept',
      'local off',
      'off',
    ]);
  }, 60_000);

  it("warns when go.mod asks for a newer Go than the sandbox's", async () => {
    const other = await realpath(await mkdtemp(join(tmpdir(), 'autofix-go-version-')));
    try {
      await writeFile(join(other, 'go.mod'), 'module example.com/x\n\ngo 1.99\n');
      const installed = (await run('go', ['version'])).stdout.match(/go(\d+(?:\.\d+)*)/)![1];
      expect(await toolchainWarnings(other)).toEqual([
        `The repository asks for Go 1.99 (go.mod); commands ran on Go ${installed}.`,
      ]);
      await writeFile(join(other, 'go.mod'), `module example.com/x\n\ngo ${installed}\n`);
      expect(await toolchainWarnings(other)).toEqual([]);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
