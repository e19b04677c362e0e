/**
 * A Go module repository with one dependency, for the toolchain tests and bench: `example.com/calc`
 * requires `example.com/greet` v1.0.0, served by a file-based GOPROXY inside the worktree
 * (`.proxy`, no network needed; remove it after setup so that only the cache has the module).
 * `calc.go` has the bug (Sum subtracts); `fix()` writes the fix. `go.sum` is written by the
 * host's `go mod tidy`, as the repository would commit it.
 */
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Passed through to commands, so redacted from output as a whole value: not a module path. */
export const NOSUMDB = 'example.invalid,example.com';

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

const calc = (sign: string): string =>
  `package calc\n\nimport "example.com/greet"\n\nfunc Sum(a, b int) int { return greet.Add(a, ${sign}b) }\n`;

export interface GoModuleRepo {
  worktree: string;
  /** GOPROXY and GONOSUMDB for `setup` (pass both through with `env_passthrough`). */
  proxyEnv: { GOPROXY: string; GONOSUMDB: string };
  fix(): Promise<void>;
}

/** Publishes example.com/greet v1.0.0 in a file-based GOPROXY at `proxy`. */
async function publishGreet(scratch: string, proxy: string, env: NodeJS.ProcessEnv): Promise<void> {
  const src = join(scratch, 'greet-src');
  const mod = 'module example.com/greet\n\ngo 1.19\n';
  await mkdir(src, { recursive: true });
  await writeFile(join(src, 'go.mod'), mod);
  await writeFile(
    join(src, 'greet.go'),
    'package greet\n\nfunc Add(a, b int) int { return a + b }\n',
  );
  const dir = join(proxy, 'example.com', 'greet', '@v');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'list'), 'v1.0.0\n');
  await writeFile(join(dir, 'v1.0.0.info'), '{"Version":"v1.0.0","Time":"2024-01-01T00:00:00Z"}');
  await writeFile(join(dir, 'v1.0.0.mod'), mod);
  await writeFile(join(scratch, 'mkzip.go'), MKZIP);
  const zip = join(dir, 'v1.0.0.zip');
  await run('go', ['run', join(scratch, 'mkzip.go'), src, 'example.com/greet@v1.0.0', zip], {
    env,
  });
}

/** The repository in `worktree` (an existing empty folder); `scratch` is removed after. */
export async function createGoModuleRepo(worktree: string, scratch: string): Promise<GoModuleRepo> {
  const proxyEnv = { GOPROXY: `file://${join(worktree, '.proxy')}`, GONOSUMDB: NOSUMDB };
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: scratch,
    GOPATH: join(scratch, 'path'),
    GOCACHE: join(scratch, 'build'),
    GOFLAGS: '-modcacherw',
    GOTOOLCHAIN: 'local',
    ...proxyEnv,
  };
  await publishGreet(scratch, join(worktree, '.proxy'), env);
  const goMod = 'module example.com/calc\n\ngo 1.19\n\nrequire example.com/greet v1.0.0\n';
  await writeFile(join(worktree, 'go.mod'), goMod);
  await writeFile(join(worktree, 'calc.go'), calc('-'));
  await writeFile(
    join(worktree, 'calc_test.go'),
    'package calc\n\nimport "testing"\n\nfunc TestSum(t *testing.T) {\n\tif Sum(2, 3) != 5 {\n\t\tt.Fatal("Sum(2, 3) != 5")\n\t}\n}\n',
  );
  await run('go', ['mod', 'tidy'], { cwd: worktree, env });
  await rm(scratch, { recursive: true, force: true });
  return { worktree, proxyEnv, fix: () => writeFile(join(worktree, 'calc.go'), calc('')) };
}
