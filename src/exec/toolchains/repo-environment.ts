/**
 * The environment a repository's commands run in, decided once per validation run: for a Python
 * repository its own virtualenv (created in the sandbox when missing, then active for every
 * command), and a warning for each runtime version the repository asks for and did not get.
 */
import { openRepoFiles, type RepoFiles } from '../../repo-files/open-repo-files.js';
import type { ExecResult } from '../run-command.js';
import {
  CREATE_VENV_LABEL,
  createVenvArgv,
  isPythonProject,
  PYTHON_UNSET,
  VENV_DIR,
  venvEnv,
} from './python-project.js';
import { requestedVersions, VERSION_FILES, versionWarnings } from './requested-versions.js';
import { workerPackages } from './worker-packages.js';

export interface RepoEnvironment {
  python: boolean;
  /** Variables for every command (the venv's `VIRTUAL_ENV`, `PATH`, `PYTHONNOUSERSITE`). */
  env: Record<string, string>;
  /** Worker variables no command gets, even through `env_passthrough`. */
  unset: readonly string[];
  /** The venv's creation, when it ran. */
  created?: ExecResult;
  /** Versions asked for and not honoured. */
  warnings: string[];
}

export interface RepoEnvironmentDeps {
  baseEnv: NodeJS.ProcessEnv;
  /** Runs a command as `setup` runs (sandboxed, in the worktree), with extra variables. */
  run: (argv: string[], label: string, env: Record<string, string>) => Promise<ExecResult>;
}

const SMALL = { maxBytes: 1024 * 1024 };

export const NO_PYTHON_WARNING =
  'This looks like a Python repository, but the worker has no `python3`: no virtualenv was ' +
  'made for its commands.';

async function rootFiles(
  files: RepoFiles,
): Promise<{ names: string[]; texts: Record<string, string> }> {
  const entries = await files.list('');
  const names = Array.isArray(entries)
    ? entries.filter((e) => e.kind === 'file').map((e) => e.name)
    : [];
  const texts: Record<string, string> = {};
  for (const name of VERSION_FILES) {
    if (!names.includes(name)) continue;
    const read = await files.readText(name, SMALL);
    if (read.ok) texts[name] = read.text;
  }
  return { names, texts };
}

/** The venv's Python version, from the `pyvenv.cfg` that `venv` wrote. */
async function venvPython(files: RepoFiles): Promise<string | undefined> {
  const read = await files.readText(`${VENV_DIR}/pyvenv.cfg`, SMALL);
  return read.ok ? /^version(?:_info)?\s*=\s*(\S+)/m.exec(read.text)?.[1] : undefined;
}

/** Creates the venv when missing, with the sandbox's own `python3` (a pyenv shim honours the
 * repository's `.python-version`). */
async function ensureVenv(
  files: RepoFiles,
  deps: RepoEnvironmentDeps,
): Promise<ExecResult | undefined> {
  if (files.entryKind(`${VENV_DIR}/pyvenv.cfg`) === 'file') return undefined;
  return deps.run(createVenvArgv(), CREATE_VENV_LABEL, {});
}

export async function repoEnvironment(
  worktree: string,
  deps: RepoEnvironmentDeps,
): Promise<RepoEnvironment> {
  const files = openRepoFiles(worktree);
  const [{ names, texts }, packages] = await Promise.all([
    rootFiles(files),
    workerPackages(deps.baseEnv),
  ]);
  const made = isPythonProject(names) ? await ensureVenv(files, deps) : undefined;
  // No `python3` on the worker (exit 127): a repository that only looks like a Python one (a
  // Node project with a `requirements.txt`) still runs; it gets no venv, and the run says so.
  const noPython = made?.exit_code === 127;
  const python = isPythonProject(names) && !noPython;
  const created = noPython ? undefined : made;
  const ok = created === undefined || created.exit_code === 0;
  const actual = {
    ...(packages.nodeVersion ? { node: packages.nodeVersion } : {}),
    ...(python && ok ? { python: await venvPython(files) } : {}),
  };
  return {
    python,
    env: python ? venvEnv(files.root, deps.baseEnv.PATH) : {},
    unset: python ? PYTHON_UNSET : [],
    ...(created ? { created } : {}),
    warnings: [
      ...(noPython ? [NO_PYTHON_WARNING] : []),
      ...(ok ? versionWarnings(requestedVersions(texts), actual) : []),
    ],
  };
}
