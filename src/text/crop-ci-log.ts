/**
 * A failed CI job's log cropped to the part a fixer needs (issue #17): GitHub Actions prints one
 * file per job — every line time-stamped, each step opened by `##[group]Run <step>`, its inputs in
 * `##[group]…##[endgroup]` blocks, the failure marked `##[error]`. What is kept: the failing step's
 * name, its first lines and its last ones (runners print the failure last), and the error lines.
 * A log in no known shape (another CI's output) is cut to its ends the same way. Only the
 * Actions markers are read here, no test runner's output: the fixer reads the excerpt, and the
 * signature must stay the same between rounds (it is kept in the round's commit trailer).
 *
 * `failureSignature` says whether two rounds failed the same way: the failing checks and the
 * excerpts with numbers, hashes, times and temporary paths taken out.
 */
import { createHash } from 'node:crypto';
import { keepEnds } from './keep-ends.js';
import { stripAnsi } from './terminal-text.js';

export interface CroppedLog {
  /** The step that failed (`Run npm test`), when the log says. */
  step?: string;
  /** The cropped text: at most `maxChars`. */
  excerpt: string;
  /** `##[error]` lines, as the runner wrote them (without the marker). */
  errors: string[];
  /** Lines the crop left out. */
  cutLines: number;
}

const TIMESTAMP = /^\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
const STEP = /^##\[group\]Run (.*)$/;
const ERROR = /^##\[error\](.*)$/;

function cleanLines(log: string): string[] {
  return log
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => stripAnsi(l.replace(TIMESTAMP, '')));
}

interface Step {
  name?: string;
  lines: string[];
}

function stepsOf(lines: readonly string[]): Step[] {
  const steps: Step[] = [{ lines: [] }];
  for (const line of lines) {
    const start = STEP.exec(line);
    // The step's own line opens the folded block of its command and inputs.
    if (start) steps.push({ name: start[1]!.trim(), lines: ['##[group]'] });
    else steps.at(-1)!.lines.push(line);
  }
  return steps;
}

/** A step's output without the folded blocks (inputs, env) the runner prints before it. */
function withoutGroups(lines: readonly string[]): string[] {
  const out: string[] = [];
  let depth = 0;
  for (const line of lines) {
    if (line.startsWith('##[group]')) depth++;
    else if (line.startsWith('##[endgroup]')) depth = Math.max(0, depth - 1);
    else if (depth === 0) out.push(line);
  }
  return out;
}

export function cropCiLog(
  log: string,
  options: { head?: number; tail?: number; maxChars?: number } = {},
): CroppedLog {
  const head = options.head ?? 10;
  const tail = options.tail ?? 120;
  const maxChars = options.maxChars ?? 6000;
  const lines = cleanLines(log);
  const steps = stepsOf(lines);
  const failing = steps.find((s) => s.lines.some((l) => ERROR.test(l)));
  const chosen = failing ?? { lines };
  const errors = chosen.lines.flatMap((l) => {
    const m = ERROR.exec(l);
    return m ? [m[1]!.trim()] : [];
  });
  const body = withoutGroups(chosen.lines)
    .map((l) => (ERROR.test(l) ? `Error: ${ERROR.exec(l)![1]!.trim()}` : l))
    .filter((l) => !l.startsWith('##['));
  while (body.length > 0 && body[0]!.trim() === '') body.shift();
  while (body.length > 0 && body.at(-1)!.trim() === '') body.pop();
  let kept = keepEnds(body.join('\n'), head, tail).join('\n');
  if (kept.length > maxChars) {
    // The end is where the failure is: keep it, cut at a line start.
    kept = `[… cut …]\n${kept.slice(-maxChars).replace(/^[^\n]*\n/, '')}`;
  }
  const keptLines = kept.split('\n').length;
  return {
    ...(failing?.name ? { step: failing.name } : {}),
    excerpt: kept,
    errors: errors.slice(0, 10),
    cutLines: Math.max(0, lines.length - keptLines),
  };
}

/** Text with what changes from one run to the next taken out: numbers, hashes, times, temp paths. */
export function normalizeForSignature(text: string): string {
  return text
    .replace(/\/(?:tmp|var\/folders|home\/runner\/work\/_temp)\/[^\s'"):]*/g, '<tmp>')
    .replace(/\b[0-9a-f]{7,40}\b/gi, '<hash>')
    .replace(/\d+(?:\.\d+)?\s*(?:ms|s|sec|seconds|m|min)\b/g, '<time>')
    .replace(/\d+/g, '#')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/**
 * Whether two rounds failed alike: the failing checks' names and the failing lines of their logs
 * (the error lines and the excerpt's last lines: `##[error]` alone is often only "Process
 * completed with exit code 1"), normalised.
 */
export function failureSignature(
  failures: readonly { name: string; errors: readonly string[]; excerpt: string }[],
): string {
  const parts = [...failures]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((f) => {
      const lines = [...f.errors, ...f.excerpt.split('\n').slice(-30)];
      return `${f.name}\n${lines.map(normalizeForSignature).join('\n')}`;
    });
  return createHash('sha256').update(parts.join('\n---\n')).digest('hex').slice(0, 16);
}
