import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readWorkOrder } from '../../../../src/hosts/modes/work-order/read-work-order.js';
import { workOrderSchema } from '../../../../src/hosts/modes/work-order/work-order-schema.js';

const VALID = {
  id: 'WO-1',
  title: 'Add a flag',
  intent: 'Add --verbose.',
  allowed_files: ['src/cli.py', 'tests/test_cli.py'],
  forbidden: [],
  acceptance_commands: ['python -m pytest -q'],
  context_files: ['src/cli.py'],
};

const problems = (order: unknown): string[] => {
  const r = workOrderSchema.safeParse(order);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('work order schema', () => {
  it('accepts a valid work order, with or without notes', () => {
    expect(problems(VALID)).toEqual([]);
    expect(problems({ ...VALID, notes: null })).toEqual([]);
    expect(problems({ ...VALID, notes: 'n' })).toEqual([]);
  });

  it.each([
    ['/abs/path.py', 'absolute'],
    ['C:/win.py', 'drive'],
    ['../up.py', '..'],
    ['src/../../up.py', '..'],
    ['./src/cli.py', 'normalized'],
    ['src//cli.py', 'normalized'],
    ['src\\cli.py', 'backslashes'],
    ['src/*.py', 'no glob patterns'],
    ['', 'empty'],
  ])('refuses the path %j', (path, why) => {
    const found = problems({ ...VALID, allowed_files: [path] });
    expect(found.join('\n')).toContain(why);
  });

  it('requires acceptance commands, at most 10 context files, context ⊆ allowed', () => {
    expect(problems({ ...VALID, acceptance_commands: [] })).toEqual([
      'acceptance_commands: must list at least one command',
    ]);
    const many = Array.from({ length: 11 }, (_, i) => `f${i}.py`);
    expect(problems({ ...VALID, allowed_files: many, context_files: many })).toEqual([
      'context_files: must list at most 10 files',
    ]);
    expect(problems({ ...VALID, context_files: ['README.md'] })).toEqual([
      'context_files.0: "README.md" is not in allowed_files (context_files must be a subset of allowed_files)',
    ]);
  });

  it('refuses unknown keys and missing fields', () => {
    expect(problems({ ...VALID, id: undefined, extra: 1 }).sort()).toEqual([
      ': Unrecognized key: "extra"',
      'id: Invalid input: expected string, received undefined',
    ]);
  });
});

describe('readWorkOrder', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'autofix-wo-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const load = (content: string) => {
    const file = join(dir, 'wo.json');
    writeFileSync(file, content);
    return readWorkOrder(file);
  };

  it('splits the acceptance commands and hashes the file', async () => {
    const text = JSON.stringify({ ...VALID, acceptance_commands: ["pytest -k 'a b'"] });
    const loaded = await load(text);
    expect(loaded.acceptance).toEqual([['pytest', '-k', 'a b']]);
    expect(loaded.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await load(text)).sha256).toBe(loaded.sha256);
  });

  it('refuses commands that need a shell, and invalid JSON, as CONFIG_INVALID', async () => {
    await expect(
      load(JSON.stringify({ ...VALID, acceptance_commands: ['make | tee log'] })),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    await expect(load('{ nope')).rejects.toThrow('not valid JSON');
  });
});
