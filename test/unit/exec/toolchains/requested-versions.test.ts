import {
  requestedVersions,
  satisfies,
  versionWarnings,
} from '../../../../src/exec/toolchains/requested-versions.js';

describe('requestedVersions', () => {
  it('reads each file the version managers read', () => {
    expect(
      requestedVersions({
        '.nvmrc': '# node\nv18.17.0\n',
        '.node-version': '20\n',
        '.python-version': '3.12\n',
        'package.json': JSON.stringify({ engines: { node: '>=18 <21' } }),
        '.tool-versions': 'nodejs 22.1.0\npython 3.11.4 3.10.1\nruby 3.3\n',
      }),
    ).toEqual([
      { runtime: 'node', range: '18.17.0', source: '.nvmrc' },
      { runtime: 'node', range: '20', source: '.node-version' },
      { runtime: 'python', range: '3.12', source: '.python-version' },
      { runtime: 'node', range: '>=18 <21', source: 'package.json engines.node' },
      { runtime: 'node', range: '22.1.0', source: '.tool-versions' },
      { runtime: 'python', range: '3.11.4', source: '.tool-versions' },
    ]);
  });

  it('ignores a package.json that is not JSON or has no engines', () => {
    expect(requestedVersions({ 'package.json': '{' })).toEqual([]);
    expect(requestedVersions({ 'package.json': '{"engines":{"npm":"10"}}' })).toEqual([]);
  });
});

describe('satisfies', () => {
  it.each([
    ['18', '18.20.1', true],
    ['18', '20.20.2', false],
    ['18.x', '18.0.0', true],
    ['3.12', '3.12.4', true],
    ['3.12', '3.11.7', false],
    ['3.11.7', '3.11.7', true],
    ['3.11.7', '3.11.8', false],
    ['>=18', '20.20.2', true],
    ['>=22', '20.20.2', false],
    ['>=18 <21', '20.20.2', true],
    ['>=18 <20', '20.20.2', false],
    ['>18', '18.9.0', false],
    ['<=20', '20.9.0', true],
    ['^18.17.0', '18.20.0', true],
    ['^18.17.0', '20.0.0', false],
    ['^0.2.3', '0.3.0', false],
    ['~3.11', '3.11.9', true],
    ['~3.11.2', '3.12.0', false],
    ['^16 || ^18 || >=20', '20.20.2', true],
    ['^16 || ^18', '20.20.2', false],
  ])('%s ∋ %s: %s', (range, version, expected) => {
    expect(satisfies(range, version)).toBe(expected);
  });

  it('does not judge what it cannot read', () => {
    expect(satisfies('lts/*', '20.0.0')).toBeUndefined();
    expect(satisfies('system', '3.11.7')).toBeUndefined();
    expect(satisfies('pypy3.10-7.3.12', '3.10.0')).toBeUndefined();
  });
});

describe('versionWarnings', () => {
  it('says which request was not honoured, and on what the commands ran', () => {
    const requested = requestedVersions({ '.nvmrc': '18\n', '.python-version': '3.11\n' });
    expect(versionWarnings(requested, { node: '20.20.2', python: '3.11.7' })).toEqual([
      'The repository asks for Node 18 (.nvmrc); commands ran on Node 20.20.2.',
    ]);
    // Unknown actual version (no venv): no claim.
    expect(versionWarnings(requested, {})).toEqual([]);
  });
});
