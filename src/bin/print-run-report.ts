/** The short report `autofix run` prints on stdout when it ends. */
import { readdirSync } from 'node:fs';
import type { LocalRunReport } from '../hosts/local/run-local.js';
import { describeReproduction } from '../hosts/local/local-run-report.js';
import { quote } from 'shell-quote';
import { keepEnds } from '../text/keep-ends.js';

export function printRunReport(
  report: LocalRunReport,
  out: NodeJS.WritableStream,
  options: { showDiff?: boolean } = {},
): void {
  const lines: string[] = [];
  const r = report.result;
  lines.push(`Run ${report.runId}: ${report.outcome.toUpperCase()}`);
  if (r?.triage)
    lines.push(`Triage: ${r.triage.risk} risk, ${r.triage.classification} — ${r.triage.summary}`);
  if (r?.plan) {
    const n = r.plan.plan_steps.length;
    lines.push(`Plan (${n} step${n === 1 ? '' : 's'}, branch ${r.plan.branch_name}):`);
    for (const s of r.plan.plan_steps) lines.push(`  ${s.id}. ${s.description}`);
  }
  if (r?.commit) {
    lines.push(`Commit ${r.commit.sha.slice(0, 12)} on ${r.commit.branch}:`);
    lines.push(
      ...r.commit.message
        .trimEnd()
        .split('\n')
        .map((l) => `  ${l}`),
    );
  }
  if (r?.commit && report.diffStat) {
    lines.push('Diff:', ...report.diffStat.split('\n').map((l) => `  ${l.trim()}`));
    if (options.showDiff) lines.push(r.commit.diff.trimEnd());
    else lines.push(`  see it: git -C ${quote([report.repo ?? '.'])} show ${r.commit.branch}`);
  }
  if (r?.code) {
    lines.push('Files:');
    for (const c of r.code.changes) lines.push(`  ${c.operation.padEnd(8)} ${c.path}`);
    lines.push('Validation:');
    if (r.code.validation.length === 0) lines.push('  (no validation commands configured)');
    const preexisting = new Set(r.code.preexisting);
    for (const v of r.code.validation) {
      lines.push(
        `  ${v.exit_code === 0 ? 'PASS' : 'FAIL'}  exit ${v.exit_code ?? '-'}  ${String(v.duration_ms).padStart(6)} ms  ${v.command}${v.exit_code !== 0 && preexisting.has(v.command) ? '  (already failing on the base commit)' : ''}`,
      );
    }
    if (r.code.baseline) {
      const b = r.code.baseline;
      lines.push(
        `  baseline ${b.commit.slice(0, 12)}${b.cached ? ' (cached)' : ''}: ${b.failing.length === 0 ? 'every command passes' : `already failing: ${b.failing.join(', ')}`}`,
      );
    }
    for (const w of r.code.warnings) lines.push(`  warning: ${w}`);
    if (r.code.repairs > 0) lines.push(`Repairs: ${r.code.repairs}`);
  }
  if (report.stopped) lines.push(`Stopped: ${report.stopped}`);
  const reproduction = describeReproduction(report);
  if (reproduction) lines.push(reproduction);
  if (report.failure) {
    lines.push(
      `Failed in ${report.failure.stage} (${report.failure.code}); everything was rolled back:`,
    );
    // The message leads with the root cause and keeps the output's tail; cut only a runaway one.
    lines.push(...keepEnds(report.failure.message, 15, 60).map((l) => `  ${l}`));
  }
  if (report.prFile) lines.push(`Pull request text: ${report.prFile}`);
  lines.push(`Artifacts: ${report.artifactsDir}`);
  if (report.previousArtifactsDir) {
    lines.push(`  (an earlier run with the same id: ${report.previousArtifactsDir})`);
  }
  try {
    for (const name of readdirSync(report.artifactsDir).sort()) lines.push(`  ${name}`);
  } catch {
    // nothing written
  }
  out.write(`${lines.join('\n')}\n`);
}
