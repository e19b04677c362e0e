/**
 * The PO node's command runner: each command in order, without a shell,
 * in the repository, with the per-command timeout, no network under the sandbox and an
 * allowlisted environment; full stdout/stderr go to files, the result keeps a bounded tail. Stops
 * at the first failure.
 */
import type { RunLog } from '../../../artifacts/run-log.js';
import { runCommand, type SandboxPolicy } from '../../../exec/index.js';
import { commandOutput, excerptOf } from '../../../pipeline/code/failure-brief.js';
import type { CmdResult } from './types.js';

export interface CommandContext {
  repo: string;
  timeoutMs: number;
  redact: (text: string) => string;
  sandbox: SandboxPolicy;
  /** A writable HOME of the run's own (the user's is hidden in the sandbox). */
  home: string;
  envPassthrough: readonly string[];
  /** The run folder's log: files are written relative to `<out>/<run_id>/`. */
  runLog: RunLog;
}

/** Full logs can be large; only the artifacts hold them, never a prompt. */
const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

export async function runCommands(
  prefix: string,
  commands: readonly string[][],
  ctx: CommandContext,
): Promise<{ results: CmdResult[]; failed?: { result: CmdResult; output: string } }> {
  const results: CmdResult[] = [];
  for (const [i, argv] of commands.entries()) {
    const r = await runCommand(argv, {
      worktree: ctx.repo,
      timeoutMs: ctx.timeoutMs,
      sandbox: ctx.sandbox,
      home: ctx.home,
      envPassthrough: ctx.envPassthrough,
      redact: ctx.redact,
      maxOutputBytes: MAX_OUTPUT_BYTES,
    });
    const stdoutPath = `${prefix}_${i + 1}.stdout.txt`;
    const stderrPath = `${prefix}_${i + 1}.stderr.txt`;
    ctx.runLog.text(stdoutPath, r.stdout);
    ctx.runLog.text(stderrPath, r.stderr);
    const result: CmdResult = {
      command: [...argv],
      exit_code: r.exit_code ?? -1,
      stdout_trunc: r.stdout === '' ? '' : excerptOf(r.stdout),
      stderr_trunc: r.stderr === '' ? '' : excerptOf(r.stderr),
      stdout_path: stdoutPath,
      stderr_path: stderrPath,
      duration_seconds: Math.round(r.duration_ms) / 1000,
      timed_out: r.timed_out,
    };
    results.push(result);
    if (result.exit_code !== 0 || result.timed_out) {
      const output = commandOutput(r);
      return { results, failed: { result, output } };
    }
  }
  return { results };
}
