import { mirrorDir } from '../../../src/git/mirror.js';
import { localRepoKey } from '../../../src/git/local-workspace.js';

describe('localRepoKey (the mirror of an autofix run repository)', () => {
  it('keeps two repositories with the same folder name apart', () => {
    const a = localRepoKey('/home/ann/work/calc');
    const b = localRepoKey('/home/ann/forks/calc');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^local-[0-9a-f]{12}\/calc$/);
    expect(localRepoKey('/home/ann/work/calc/')).toBe(a);
  });

  it('gives any folder name a valid mirror name', () => {
    for (const path of ['/tmp/my repo', '/tmp/café', '/tmp/..', '/']) {
      expect(() => mirrorDir('/w', localRepoKey(path))).not.toThrow();
    }
    expect(localRepoKey('/tmp/my repo')).toMatch(/\/my-repo$/);
  });
});
