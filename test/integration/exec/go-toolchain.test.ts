/**
 * Go in the real sandbox with the caches as the code workspace binds them (exec/toolchains/):
 * `setup` downloads a module into the repository's cache, `validate` (no network, `GOPROXY=off`)
 * builds against that cache read-only with a build cache of its own, and a wrong `go` directive
 * becomes a warning line. The module comes from a file-based GOPROXY inside the worktree (no
 * network here), removed after setup, so validate can only find it in the cache.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_REPO_CONFIG, type RepoConfig } from '../../../src/config/repo-config.js';
import { runValidation, type ValidationOptions } from '../../../src/exec/run-validation.js';
import { basicSandboxPolicy } from '../../../src/exec/sandbox-policy.js';
import { setupCache, validateCache } from '../../../src/pipeline/code/code-workspace.js';
import { toolchainWarnings } from '../../../src/pipeline/code/toolchain-warnings.js';

const run = promisify(execFile);
const config = (over: Partial<RepoConfig>): RepoConfig => ({
  ...DEFAULT_REPO_CONFIG,
  env_passthrough: ['GOPROXY', 'GONOSUMDB'],
  ...over,
});

/** A Go program (stdlib only) that writes a module zip: entries under `module@version/`. */
const MKZIP = `package main
import ("archive/zip"; "os"; "path/filepath")
func main() {
  src, prefix, out := os.Args[1], os.Args[2], os.Args[3]
  f, _ := os.Create(out); z := zip.NewWriter(f)
  filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
    if info.IsDir() { return nil }
    rel, _ := filepath.Rel(src, p); w, _ := z.Create(prefix + "/" + filepath.ToSlash(rel))
    b, _ := os.ReadFile(p); w.Write(b); return nil
  })
  if err := z.Close(); err != nil { panic(err) }; f.Close()
}
`;

/** Passed through, so redacted from output as a whole value: not a word of the module path. */
const NOSUMDB = 'example.invalid,example.com';

const GREET_GO = 'package greet\n\nfunc Add(a, b int) int { return a + b }\n';

describe('Go in the sandbox: module cache from setup, read-only in validate', () => {
  let job: string;
  let worktree: string;
  let home: string;
  let tmp: string;
  let cacheDir: string;
  let hostGo: Record<string, string>;

  /** Publishes example.com/greet v1.0.0 in a file-based GOPROXY at `proxy`. */
  async function publishGreet(proxy: string): Promise<void> {
    const src = join(job, 'greet-src');
    await mkdir(src, { recursive: true });
    await writeFile(join(src, 'go.mod'), 'module example.com/greet\n\ngo 1.19\n');
    await writeFile(join(src, 'greet.go'), GREET_GO);
    const dir = join(proxy, 'example.com', 'greet', '@v');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'list'), 'v1.0.0\n');
    await writeFile(join(dir, 'v1.0.0.info'), '{"Version":"v1.0.0","Time":"2024-01-01T00:00:00Z"}');
    await writeFile(join(dir, 'v1.0.0.mod'), 'module example.com/greet\n\ngo 1.19\n');
    await writeFile(join(job, 'mkzip.go'), MKZIP);
    await run(
      'go',
      ['run', join(job, 'mkzip.go'), src, 'example.com/greet@v1.0.0', join(dir, 'v1.0.0.zip')],
      {
        env: hostGo,
      },
    );
  }

  beforeAll(async () => {
    job = await realpath(await mkdtemp(join(tmpdir(), 'autofix-go-job-')));
    [worktree, home, tmp, cacheDir] = ['wt', 'home', 'tmp', 'caches/repo'].map((d) =>
      join(job, d),
    ) as [string, string, string, string];
    for (const dir of [worktree, home, tmp, cacheDir]) await mkdir(dir, { recursive: true });
    const scratch = join(job, 'host-go');
    hostGo = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: scratch,
      GOPATH: join(scratch, 'path'),
      GOCACHE: join(scratch, 'build'),
      GOFLAGS: '-modcacherw',
      GOTOOLCHAIN: 'local',
      GOPROXY: `file://${join(worktree, '.proxy')}`,
      GONOSUMDB: NOSUMDB,
    };
    await publishGreet(join(worktree, '.proxy'));
    await writeFile(
      join(worktree, 'go.mod'),
      'module example.com/calc\n\ngo 1.19\n\nrequire example.com/greet v1.0.0\n',
    );
    // The bug: Sum subtracts.
    await writeFile(
      join(worktree, 'calc.go'),
      'package calc\n\nimport "example.com/greet"\n\nfunc Sum(a, b int) int { return greet.Add(a, -b) }\n',
    );
    await writeFile(
      join(worktree, 'calc_test.go'),
      'package calc\n\nimport "testing"\n\nfunc TestSum(t *testing.T) {\n\tif Sum(2, 3) != 5 {\n\t\tt.Fatal("Sum(2, 3) != 5")\n\t}\n}\n',
    );
    // go.sum as the repository would commit it (written by the host's go, then its cache dropped).
    await run('go', ['mod', 'tidy'], { cwd: worktree, env: hostGo });
    await rm(scratch, { recursive: true, force: true });
  }, 120_000);

  afterAll(async () => {
    await rm(job, { recursive: true, force: true });
  });

  const options = (over: Partial<ValidationOptions> = {}): ValidationOptions => ({
    sandbox: basicSandboxPolicy('bwrap'),
    home,
    tmpDir: tmp,
    baseEnv: { ...process.env, GOPROXY: hostGo.GOPROXY, GONOSUMDB: NOSUMDB },
    setupCache: setupCache(home, cacheDir, 'bwrap'),
    validateCache: validateCache(cacheDir, tmp, 'bwrap'),
    ...over,
  });

  it('downloads in setup, then validates offline from the read-only cache: fails on the base, passes with the fix', async () => {
    const setup = await runValidation(
      config({ setup: ['go mod download -x'], validate: [] }),
      worktree,
      options(),
    );
    expect(setup.results.map((r) => [r.exit_code, r.sandboxed])).toEqual([[0, true]]);
    // From now on only the cache has the module.
    await rm(join(worktree, '.proxy'), { recursive: true, force: true });

    const base = await runValidation(config({ validate: ['go test ./...'] }), worktree, options());
    expect(base.passed).toBe(false);
    expect(base.results[0]!.stdout).toMatch(/--- FAIL: TestSum/);

    await writeFile(
      join(worktree, 'calc.go'),
      'package calc\n\nimport "example.com/greet"\n\nfunc Sum(a, b int) int { return greet.Add(a, b) }\n',
    );
    const fixed = await runValidation(config({ validate: ['go test ./...'] }), worktree, options());
    expect(fixed.results.map((r) => [r.exit_code, r.stderr])).toEqual([[0, '']]);
    expect(fixed.results[0]!.stdout).toMatch(/^ok\s+example\.com\/calc/m);

    // Without the read-only cache, validate has nowhere to find the module (the defence's reason).
    const bare = await runValidation(config({ validate: ['go test ./...'] }), worktree, {
      ...options(),
      validateCache: { binds: [], env: { GOPROXY: 'off', GOTOOLCHAIN: 'local' } },
    });
    expect(bare.passed).toBe(false);
    expect(bare.results[0]!.stderr).toMatch(/example\.com\/greet/);
  }, 180_000);

  it('keeps the module cache read-only in validate, and gives it a writable build cache', async () => {
    const probe = [
      `sh -c 'touch "$GOMODCACHE/planted" 2>/dev/null && echo modcache-writable || echo modcache-read-only'`,
      `sh -c 'mkdir -p "$GOCACHE" && touch "$GOCACHE/x" && echo gocache-writable'`,
      // Go < 1.21 has no GOTOOLCHAIN of its own to print; Go ≥ 1.21 reads it and never downloads.
      `sh -c 'echo "$GOTOOLCHAIN $GOPROXY"'`,
      'go env GOPROXY',
    ];
    const result = await runValidation(config({ validate: probe }), worktree, options());
    expect(result.results.map((r) => r.stdout.trim())).toEqual([
      'modcache-read-only',
      'gocache-writable',
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
