import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readProjectInputs } from '../../../../src/hosts/modes/code-commit/read-project-inputs.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'autofix-inputs-'));
  mkdirSync(join(dir, 'agent-config'));
  writeFileSync(join(dir, 'agent-config/query.txt'), 'the query');
  writeFileSync(join(dir, 'agent-config/codeRollup.txt'), 'the code');
  writeFileSync(join(dir, '.gitignore'), 'target\n/agent-config\n');
  writeFileSync(join(dir, 'build.sh'), '#!/bin/sh\n');
  chmodSync(join(dir, 'build.sh'), 0o755);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readProjectInputs', () => {
  it('reads the query and the code rollup', async () => {
    await expect(readProjectInputs(dir)).resolves.toEqual({
      query: 'the query',
      codebase: 'the code',
    });
  });

  it.each(['agent-config/query.txt', 'agent-config/codeRollup.txt'])(
    'names %s when it is missing',
    async (file) => {
      rmSync(join(dir, file));
      await expect(readProjectInputs(dir)).rejects.toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringContaining(`${file} is missing`) as string,
      });
    },
  );

  it.each([
    ['/agent-config/\n', true],
    ['  /agent-config  \r\n', true],
    ['agent-config\n', false],
    ['# /agent-config\n', false],
    ['/agent-configs\n', false],
  ])('accepts .gitignore %j: %s', async (content, ok) => {
    writeFileSync(join(dir, '.gitignore'), content);
    const result = readProjectInputs(dir);
    if (ok) await expect(result).resolves.toBeDefined();
    else await expect(result).rejects.toThrow('.gitignore has no `/agent-config` line');
  });

  it('refuses a project without .gitignore', async () => {
    rmSync(join(dir, '.gitignore'));
    await expect(readProjectInputs(dir)).rejects.toThrow('.gitignore is missing');
  });

  it('refuses a build.sh that cannot run', async () => {
    chmodSync(join(dir, 'build.sh'), 0o644);
    await expect(readProjectInputs(dir)).rejects.toThrow('build.sh is missing or not executable');
  });
});
