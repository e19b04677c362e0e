/**
 * One line per toolchain whose version differs from what the repository asks for, for the
 * validation run's warnings (status comment, PR): "The repository asks for Go 1.23 (go.mod);
 * commands ran on Go 1.19.8."
 */
import { GO } from './go.js';
import { JAVA } from './java.js';
import { compareVersions, type RequestedVersion } from './types.js';

/** Whether the installed version serves the request: Go's `go` line is a minimum, Java's a major. */
const SERVES: Record<string, (installed: string, requested: string) => boolean> = {
  [GO]: (installed, requested) => compareVersions(installed, requested) >= 0,
  [JAVA]: (installed, requested) => compareVersions(installed, requested) === 0,
};

export function versionWarnings(
  requested: readonly RequestedVersion[],
  installed: Readonly<Record<string, string | undefined>>,
): string[] {
  const warnings: string[] = [];
  for (const want of requested) {
    const have = installed[want.toolchain];
    const asked = `The repository asks for ${want.toolchain} ${want.version} (${want.source})`;
    if (have === undefined) {
      warnings.push(`${asked}; the sandbox has no ${want.toolchain}.`);
      continue;
    }
    const serves = SERVES[want.toolchain] ?? ((a, b) => compareVersions(a, b) === 0);
    if (!serves(have, want.version))
      warnings.push(`${asked}; commands ran on ${want.toolchain} ${have}.`);
  }
  return warnings;
}
