/**
 * The operator's `.env` (README, Configuration): read line by line, so that each value knows its
 * line and every line that is not `KEY=VALUE` is reported, not merged into the next key as
 * `node:util`'s `parseEnv` does (a private key pasted over several lines without quotes used to
 * swallow the variables after it). Valid files read as `parseEnv` reads them: `export ` allowed,
 * `#` starts a comment outside quotes, `"…"` expands `\n` and may span lines, `'…'` and `` `…` ``
 * are taken as written.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** One `KEY=VALUE` of the file. */
export interface DotEnvEntry {
  value: string;
  /** 1-based line where the entry starts. */
  line: number;
}

/** A line that is not `KEY=VALUE` (nor a comment, nor blank), or a quote never closed. */
export interface DotEnvProblem {
  line: number;
  /** The variable the problem is about, when the line names one. */
  key?: string;
  /** What is wrong and the fix. */
  message: string;
}

export interface DotEnvFile {
  entries: Map<string, DotEnvEntry>;
  problems: DotEnvProblem[];
  /** Every entry's lines (0-based, `to` excluded), duplicates too: what a rewrite replaces. */
  spans: { key: string; from: number; to: number }[];
}

/** What `loadDotEnv` read and applied. */
export interface DotEnvLoad {
  /** The file's path as given. */
  path: string;
  found: boolean;
  /** The line of each variable the file set (not those the real environment already had). */
  lines: Map<string, number>;
  problems: string[];
}

const ENTRY = /^\s*(?:export\s+)?([A-Za-z0-9_.-]+)\s*=\s*(.*)$/;
const QUOTES = ['"', "'", '`'];

/** A value and how many more lines it took: one quoted over several lines, or a problem. */
interface ValueRead {
  value: string;
  extraLines: number;
  problem?: string;
}

function readValue(raw: string, following: string[]): ValueRead {
  const quote = raw[0];
  if (quote === undefined || !QUOTES.includes(quote)) {
    return { value: raw.replace(/#.*$/, '').trim(), extraLines: 0 };
  }
  let text = raw.slice(1);
  for (let extra = 0; ; extra++) {
    const end = text.indexOf(quote);
    if (end >= 0) {
      const inner = text.slice(0, end);
      return { value: quote === '"' ? inner.replace(/\\n/g, '\n') : inner, extraLines: extra };
    }
    const next = following[extra];
    if (next === undefined) {
      return {
        value: raw.trim(),
        extraLines: 0,
        problem: `its value opens a ${quote} quote that no later line closes: add the closing ${quote}`,
      };
    }
    text += `\n${next}`;
  }
}

/** A private key pasted over several lines without quotes: its other lines come next. */
function looksLikeKeyLine(line: string): boolean {
  return /^[A-Za-z0-9+/=]{16,}$/.test(line.trim()) || /^-----(BEGIN|END) /.test(line.trim());
}

function strayLineProblem(line: string, previousKey: string | undefined): string {
  if (previousKey && looksLikeKeyLine(line)) {
    return (
      `is not KEY=VALUE; it looks like the rest of ${previousKey}'s value over several ` +
      `lines: put the whole value in double quotes ("…" may span lines), write it on one line ` +
      `with \\n for each line break${previousKey === 'PRIVATE_KEY' ? ', or set PRIVATE_KEY_PATH to the key file instead' : ''}`
    );
  }
  return `is not KEY=VALUE (nor a # comment): write it as KEY=VALUE, or start it with # to keep it as a comment`;
}

export function parseDotEnv(text: string): DotEnvFile {
  const lines = text.split(/\r?\n/);
  const entries = new Map<string, DotEnvEntry>();
  const problems: DotEnvProblem[] = [];
  const spans: DotEnvFile['spans'] = [];
  let previousKey: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const match = ENTRY.exec(line);
    if (!match) {
      problems.push({ line: i + 1, message: strayLineProblem(line, previousKey) });
      continue;
    }
    const key = match[1]!;
    const read = readValue(match[2]!, lines.slice(i + 1));
    if (read.problem) problems.push({ line: i + 1, key, message: read.problem });
    entries.set(key, { value: read.value, line: i + 1 });
    spans.push({ key, from: i, to: i + 1 + read.extraLines });
    previousKey = key;
    i += read.extraLines;
  }
  return { entries, problems, spans };
}

/** Where `.env` is read from, and where the setup page writes the App's credentials. */
export function envFilePath(env: Record<string, string | undefined>): string {
  return env.AUTOFIX_ENV_FILE?.trim() || '.env';
}

/**
 * Reads the env file into `env` without overriding variables that are already set (an empty
 * value counts as unset), so the real environment always wins. Its problems are returned, not
 * thrown: `readSettings` reports them with every other one.
 */
export function loadDotEnv(path: string, env: Record<string, string | undefined>): DotEnvLoad {
  const load: DotEnvLoad = { path, found: false, lines: new Map(), problems: [] };
  if (!existsSync(path)) return load;
  const file = parseDotEnv(readFileSync(path, 'utf8'));
  for (const [key, { value, line }] of file.entries) {
    if (env[key] !== undefined && env[key] !== '') continue;
    env[key] = value;
    load.lines.set(key, line);
  }
  const problems = file.problems.map(({ line, key, message }) =>
    key ? `${key}: ${message} (${path}, line ${line})` : `${path}, line ${line}: ${message}`,
  );
  return { ...load, found: true, problems };
}

/**
 * Sets `values` in the env file at `path` (what the setup page does with the App's credentials;
 * the values come as Probot's setup flow gives them, the private key already in double quotes).
 * The file's other lines stay as they were, comments too; each key's earlier lines are replaced.
 * The file holds secrets: it is made readable by its owner only, its folder created if missing.
 */
export function updateDotEnv(path: string, values: Record<string, string>): void {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const replaced = new Set<number>();
  for (const span of parseDotEnv(text).spans) {
    if (!(span.key in values)) continue;
    for (let i = span.from; i < span.to; i++) replaced.add(i);
  }
  const kept = lines.filter((_, i) => !replaced.has(i));
  const added = Object.entries(values).map(
    ([key, value]) => `${key}=${value.replace(/\n/g, '\\n')}`,
  );
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${[...kept, ...added].join('\n')}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}
