/**
 * The worker's own installed packages, which repository commands must never import (issue #38;
 * docs/SECURITY.md, "The repository's code, not the worker's"): the site-packages and user site
 * of the worker's `python3`, and the global `node_modules` (`npm root -g`) but npm and corepack.
 * A test that passes only because `import flask` found the worker's Flask validates nothing.
 *
 * Found by asking the worker's own tools, once per process and PATH; the sandbox then hides each
 * behind an empty tmpfs (`packageMounts`). A tool that is missing or does not answer hides
 * nothing: then there is nothing of it to import either.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, relative } from 'node:path';

export interface WorkerPackages {
  /** The worker interpreter's site-packages and user site directories. */
  pythonSites: string[];
  /** `npm root -g`. */
  npmRoot?: string;
  /** `node --version` of the worker's PATH (the sandbox's PATH too). */
  nodeVersion?: string;
}

/** What of the global `node_modules` stays: the package managers themselves. */
export const KEPT_GLOBAL_PACKAGES = ['npm', 'corepack'];

const PYTHON_PROBE =
  'import json, site; print(json.dumps(site.getsitepackages() + [site.getusersitepackages()]))';

function ask(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: 20_000, cwd: '/' }, (err, stdout) =>
      resolve(err ? undefined : stdout.trim()),
    );
  });
}

/**
 * Every `python3` on the PATH, not only the first: a pyenv shim runs another interpreter (the
 * system's) where a repository's `.python-version` names one pyenv lacks.
 */
function pythonsOn(path: string): string[] {
  return [
    ...new Set(
      path
        .split(delimiter)
        .filter((dir) => isAbsolute(dir))
        .map((dir) => join(dir, 'python3'))
        .filter((file) => existsSync(file)),
    ),
  ];
}

async function sitesOf(python: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  try {
    const sites = JSON.parse((await ask(python, ['-c', PYTHON_PROBE], env)) ?? 'null') as unknown;
    return Array.isArray(sites) ? sites.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return []; // not a Python that answers: nothing of it to hide
  }
}

async function probe(path: string, home: string): Promise<WorkerPackages> {
  // The worker's own tools, found on its PATH, with its HOME (the user site and pyenv's root
  // hang on it) and nothing else of its environment.
  const env = { PATH: path, HOME: home };
  const [sites, npmRoot, node] = await Promise.all([
    Promise.all(pythonsOn(path).map((python) => sitesOf(python, env))),
    ask('npm', ['root', '-g'], env),
    ask('node', ['--version'], env),
  ]);
  const found: WorkerPackages = { pythonSites: [...new Set(sites.flat())] };
  if (npmRoot && isAbsolute(npmRoot)) found.npmRoot = npmRoot;
  if (node && /^v\d/.test(node)) found.nodeVersion = node.slice(1);
  return found;
}

const probes = new Map<string, Promise<WorkerPackages>>();

/** The worker's packages for this PATH and HOME, asked once per process. */
export function workerPackages(env: NodeJS.ProcessEnv): Promise<WorkerPackages> {
  const path = env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
  const home = env.HOME ?? homedir();
  const key = `${path}\0${home}`;
  let pending = probes.get(key);
  if (!pending) {
    pending = probe(path, home);
    probes.set(key, pending);
  }
  return pending;
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export interface PackageMountsInput {
  packages: WorkerPackages;
  /** The sandbox's hidden roots and what is bound back inside them (sandbox-filesystem.ts). */
  hidden: readonly string[];
  readOnly: readonly string[];
  exists?: (path: string) => boolean;
}

/**
 * The extra tmpfs mounts (and the package managers bound back over the global `node_modules`).
 * A directory already behind a hidden root and not bound back is invisible anyway and gets no
 * mount of its own (bubblewrap would have to create its mount point inside the tmpfs).
 */
export function packageMounts(input: PackageMountsInput): { hidden: string[]; readOnly: string[] } {
  const exists = input.exists ?? existsSync;
  const visible = (dir: string): boolean =>
    !input.hidden.some((h) => inside(dir, h)) || input.readOnly.some((r) => inside(dir, r));
  const { pythonSites, npmRoot } = input.packages;
  const hidden = [...pythonSites, ...(npmRoot ? [npmRoot] : [])].filter(
    (dir) => isAbsolute(dir) && dir !== '/' && exists(dir) && visible(dir),
  );
  const readOnly =
    npmRoot && hidden.includes(npmRoot)
      ? KEPT_GLOBAL_PACKAGES.map((p) => join(npmRoot, p)).filter(exists)
      : [];
  return { hidden: [...new Set(hidden)], readOnly };
}
