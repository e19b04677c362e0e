import { execFileSync } from 'node:child_process';
import { checkIgnore } from '../../../src/git/check-ignore.js';
import { makeRepo, removeTempDirs } from './temp-repo.js';

afterEach(removeTempDirs);

describe('checkIgnore', () => {
  it('reports exactly the ignored paths, including odd names, and not tracked files', async () => {
    const repo = makeRepo({ '.gitignore': '*.log\nbuild/\n', 'tracked.log': 'x\n' });
    execFileSync('git', ['add', '-f', 'tracked.log'], { cwd: repo });
    const ignored = await checkIgnore(repo, [
      'a.log',
      'build/out.js',
      'src/a.ts',
      'we ird\nname.log',
      'tracked.log',
    ]);
    expect([...ignored].sort()).toEqual(['a.log', 'build/out.js', 'we ird\nname.log']);
  });

  it('answers an empty set for no paths or nothing ignored', async () => {
    const repo = makeRepo({ 'a.ts': '' });
    expect(await checkIgnore(repo, [])).toEqual(new Set());
    expect(await checkIgnore(repo, ['a.ts'])).toEqual(new Set());
  });
});
