/**
 * `./build.sh` through the command runner (no shell, allowlisted environment, process group
 * killed on timeout, output capped, secrets redacted). The build passes if and only if
 * it exits 0, whatever it printed on stderr. The log text is what `query-N-build.txt` holds and
 * what the next repair prompt shows.
 */
import { runCommand, type SandboxPolicy } from '../../../exec/index.js';
import { BUILD_SCRIPT } from './read-project-inputs.js';

/** Long enough for a cold `cargo build`; the command is killed after it. */
export const BUILD_TIMEOUT_MS = 30 * 60 * 1000;

export interface BuildOutcome {
  passed: boolean;
  /** stdout, stderr and exit code, as logged and shown to the LLM. */
  log: string;
}

export interface BuildContext {
  redact: (text: string) => string;
  sandbox: SandboxPolicy;
  /** A writable HOME kept between builds of this project (cargo's and npm's caches). */
  home: string;
  timeoutMs?: number;
}

export async function runBuild(projectDir: string, ctx: BuildContext): Promise<BuildOutcome> {
  const timeoutMs = ctx.timeoutMs ?? BUILD_TIMEOUT_MS;
  const result = await runCommand([`./${BUILD_SCRIPT}`], {
    worktree: projectDir,
    timeoutMs,
    // The supervisor's own build script, which may fetch dependencies (cargo, npm): the package
    // registries (and AUTOFIX_NETWORK_ALLOW) through the egress proxy, writes confined to the
    // project and its HOME.
    sandbox: ctx.sandbox,
    egress: { allow: [] },
    home: ctx.home,
    redact: ctx.redact,
  });
  const exit = result.timed_out
    ? `killed after ${timeoutMs} ms (timed out)`
    : String(result.exit_code ?? `none (signal ${result.signal ?? 'unknown'})`);
  const log = [
    `$ ./${BUILD_SCRIPT}`,
    `exit code: ${exit}`,
    '',
    '--- stdout ---',
    result.stdout.trimEnd(),
    '--- stderr ---',
    result.stderr.trimEnd(),
    '',
  ].join('\n');
  return { passed: result.exit_code === 0 && !result.timed_out, log };
}
