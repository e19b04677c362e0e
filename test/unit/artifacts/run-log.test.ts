import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedactor } from '../../../src/artifacts/redact.js';
import { runIdFor } from '../../../src/artifacts/run-id.js';
import { createRunLog } from '../../../src/artifacts/run-log.js';

describe('run log', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'autofix-runlog-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('numbers queries and names files query-N…, every file redacted', () => {
    const log = createRunLog(join(dir, 'run'), createRedactor(['sk-test-key-abcdef']));
    const n1 = log.query('prompt with sk-test-key-abcdef');
    log.response(
      n1,
      { choices: [{ message: { content: 'sk-test-key-abcdef' } }] },
      'text sk-test-key-abcdef',
    );
    log.build(n1, 'build said sk-test-key-abcdef');
    const n2 = log.query('second');
    log.userOutput('note one');
    log.userOutput('note two\n');
    log.json('summary.json', { key: 'sk-test-key-abcdef', n: 1 });
    expect([n1, n2]).toEqual([1, 2]);
    const files = readdirSync(join(dir, 'run')).sort();
    expect(files).toEqual([
      'llm-user-output.txt',
      'query-1-build.txt',
      'query-1-response.json',
      'query-1-response.txt',
      'query-1.txt',
      'query-2.txt',
      'summary.json',
    ]);
    for (const f of files) {
      const text = readFileSync(join(dir, 'run', f), 'utf8');
      expect(text).not.toContain('sk-test-key-abcdef');
    }
    expect(readFileSync(join(dir, 'run', 'query-1.txt'), 'utf8')).toBe('prompt with ****ef');
    expect(readFileSync(join(dir, 'run', 'llm-user-output.txt'), 'utf8')).toBe(
      'note one\nnote two\n',
    );
  });
});

describe('runIdFor', () => {
  it('is deterministic and independent of key order', () => {
    expect(runIdFor({ a: 1, b: [1, 2], c: { x: 'y' } })).toBe(
      runIdFor({ c: { x: 'y' }, b: [1, 2], a: 1 }),
    );
    expect(runIdFor({ a: 1 })).not.toBe(runIdFor({ a: 2 }));
    expect(runIdFor({ a: 1 }, 'wo')).toMatch(/^wo-[0-9a-f]{16}$/);
  });
});
