import { packageMounts } from '../../../../src/exec/toolchains/worker-packages.js';

describe('packageMounts', () => {
  const exists = () => true;
  const sites = ['/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages'];

  it('hides the interpreter’s site-packages inside a toolchain that is bound back', () => {
    expect(
      packageMounts({
        packages: { pythonSites: [...sites, '/root/.local/lib/python3.11/site-packages'] },
        hidden: ['/root'],
        readOnly: ['/root/.pyenv'],
        exists,
      }),
    ).toEqual({ hidden: sites, readOnly: [] });
  });

  it('hides the global node_modules but npm and corepack', () => {
    expect(
      packageMounts({
        packages: {
          pythonSites: ['/usr/lib/python3/dist-packages'],
          npmRoot: '/usr/lib/node_modules',
        },
        hidden: ['/root'],
        readOnly: [],
        exists,
      }),
    ).toEqual({
      hidden: ['/usr/lib/python3/dist-packages', '/usr/lib/node_modules'],
      readOnly: ['/usr/lib/node_modules/npm', '/usr/lib/node_modules/corepack'],
    });
  });

  it('mounts nothing for what does not exist', () => {
    expect(
      packageMounts({
        packages: { pythonSites: ['/nowhere/site-packages', 'relative', '/'] },
        hidden: [],
        readOnly: [],
        exists: (p) => p !== '/nowhere/site-packages',
      }),
    ).toEqual({ hidden: [], readOnly: [] });
  });
});
