import { checkPathSyntax } from '../../../src/edits/check-path-syntax.js';
import { cleanPath } from '../../../src/edits/clean-path.js';
import { matchPathPattern } from '../../../src/edits/match-path-pattern.js';
import { DEFAULT_PATH_POLICY, pathPolicy } from '../../../src/edits/path-policy.js';

const isProtected = (path: string, policy = DEFAULT_PATH_POLICY) =>
  policy.protectedPaths.some((p) => matchPathPattern(path, p, true));

describe('path rules', () => {
  it.each([
    ['../x', 'contains `..`'],
    ['a/../../x', 'contains `..`'],
    ['/etc/passwd', 'is absolute'],
    ['C:\\Windows\\x', 'is a Windows drive path'],
    ['src\\a.ts', 'uses backslashes'],
    ['x\0y', 'contains a NUL byte'],
    ['a//b', 'is not normalized'],
    ['a/./b', 'is not normalized'],
    ['dir/', 'is not normalized'],
    ['~/x', 'starts with `~`'],
    ['', 'is empty'],
  ])('refuses the path %j', (path, reason) => {
    expect(checkPathSyntax(path)).toContain(reason);
  });

  it('accepts ordinary repository paths', () => {
    for (const path of ['src/app.ts', '.github/ISSUE_TEMPLATE/bug.md', 'docs/a b.md', 'Makefile'])
      expect(checkPathSyntax(path)).toBeUndefined();
  });

  it('cleans what models wrap around paths', () => {
    expect(cleanPath(' `./src/a.ts` ')).toBe('src/a.ts');
    expect(cleanPath('"docs/x.md"')).toBe('docs/x.md');
  });

  it.each([
    '.git/config',
    '.github/workflows/ci.yml',
    '.gitignore',
    'pkg/.gitignore',
    'package-lock.json',
    'web/yarn.lock',
    'Cargo.lock',
    '.env',
    'app/.env.local',
    'id_rsa.pem',
    'certs/server.key',
    'config/secrets/db.json',
    'ops/deployment/k8s.yml',
    'node_modules/x/index.js',
    'vendor/.git/HEAD',
    '.GIT/config',
  ])('protects %s by default', (path) => expect(isProtected(path)).toBe(true));

  it.each(['src/app.ts', '.github/CODEOWNERS', 'README.md', 'environment.ts', 'build.sh'])(
    'does not protect %s by default',
    (path) => expect(isProtected(path)).toBe(false),
  );

  it('adds the code-commit files and the repository’s own patterns', () => {
    const policy = pathPolicy({ codeCommitMode: true, protectedPaths: ['secrets', 'docs/*.pdf'] });
    for (const path of [
      'build.sh',
      'codeRollup.sh',
      'LLMInstructions.md',
      'a/UserSpecification.md',
      'agent-config/key.txt',
      'target/debug/x',
      'secrets/a.json',
      'docs/spec.pdf',
    ])
      expect(isProtected(path, policy)).toBe(true);
  });

  it('treats a pattern naming a directory as everything under it', () => {
    expect(matchPathPattern('src/lib/a.ts', 'src', false)).toBe(true);
    expect(matchPathPattern('src/lib/a.ts', 'src/**/*.ts', false)).toBe(true);
    expect(matchPathPattern('test/a.ts', 'src/', false)).toBe(false);
  });
});
