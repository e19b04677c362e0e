/**
 * One folder per run holding everything the run did, redacted (docs/SECURITY.md, rule 6):
 * `query-N.txt`, `query-N-response.json`, `query-N-response.txt`, `query-N-build.txt` (code-commit's
 * naming), `llm-user-output.txt` (the LLM's `&&&` notes) and any JSON the caller adds.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { redactDeep } from './redact.js';

export interface RunLog {
  readonly dir: string;
  /** Writes `query-N.txt` and returns N (1-based, in call order). */
  query(prompt: string): number;
  response(n: number, raw: unknown, text: string): void;
  build(n: number, text: string): void;
  userOutput(text: string): void;
  json(name: string, value: unknown): string;
  text(name: string, value: string): string;
}

export function createRunLog(dir: string, redact: (s: string) => string): RunLog {
  mkdirSync(dir, { recursive: true });
  let queries = 0;
  const write = (name: string, content: string): string => {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, redact(content));
    return path;
  };
  return {
    dir,
    query(prompt) {
      queries += 1;
      write(`query-${queries}.txt`, prompt);
      return queries;
    },
    response(n, raw, text) {
      write(`query-${n}-response.json`, `${JSON.stringify(redactDeep(raw, redact), null, 2)}\n`);
      write(`query-${n}-response.txt`, text);
    },
    build(n, text) {
      write(`query-${n}-build.txt`, text);
    },
    userOutput(text) {
      appendFileSync(
        join(dir, 'llm-user-output.txt'),
        redact(text.endsWith('\n') ? text : `${text}\n`),
      );
    },
    json(name, value) {
      return write(name, `${JSON.stringify(redactDeep(value, redact), null, 2)}\n`);
    },
    text(name, value) {
      return write(name, value);
    },
  };
}
