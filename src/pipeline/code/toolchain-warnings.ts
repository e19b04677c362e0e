/**
 * The toolchain versions the repository asks for (`go.mod`, `.java-version`, `.tool-versions`)
 * against what the sandbox has: a warning line for each that differs, added to every validation
 * run of the job (status comment, PR). Read once per workspace, from the base commit's files.
 */
import {
  goRequested,
  installedVersions,
  javaRequested,
  runVersionCommand,
  versionWarnings,
  type RequestedVersion,
  type ValidationRun,
} from '../../exec/index.js';
import { openRepoFiles } from '../../repo-files/open-repo-files.js';

const VERSION_FILE_BYTES = 64 * 1024;

export async function toolchainWarnings(
  worktree: string,
  baseEnv?: NodeJS.ProcessEnv,
): Promise<string[]> {
  const files = openRepoFiles(worktree);
  const text = async (path: string): Promise<string | undefined> => {
    const read = await files.readText(path, { maxBytes: VERSION_FILE_BYTES });
    return read.ok ? read.text : undefined;
  };
  const [goMod, javaVersion, toolVersions] = await Promise.all(
    ['go.mod', '.java-version', '.tool-versions'].map(text),
  );
  const requested = [
    goRequested({ goMod, toolVersions }),
    javaRequested({ javaVersion, toolVersions }),
  ].filter((r): r is RequestedVersion => r !== undefined);
  if (requested.length === 0) return [];
  const installed = await installedVersions(
    requested.map((r) => r.toolchain),
    runVersionCommand(baseEnv),
  );
  return versionWarnings(requested, installed);
}

/** The run with the warnings added (once each). */
export function withWarnings(run: ValidationRun, warnings: readonly string[]): ValidationRun {
  return warnings.length === 0
    ? run
    : { ...run, warnings: [...new Set([...run.warnings, ...warnings])] };
}
