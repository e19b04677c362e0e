/**
 * Java in the real sandbox: `javac` and `java` run as a `validate` command with the toolchain
 * variables of exec/toolchains/ (MAVEN_OPTS names a repository, which must not disturb the JVM),
 * and a `.java-version` the sandbox's JDK does not match becomes a warning line. Maven in setup
 * goes through the egress proxy; a Maven or Gradle build cannot be shown here: their plugins come
 * from Maven Central, which this network does not reach (their variables are unit-tested in
 * test/unit/exec/toolchains.test.ts).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_REPO_CONFIG, type RepoConfig } from '../../../src/config/repo-config.js';
import { runValidation, type ValidationOptions } from '../../../src/exec/run-validation.js';
import { basicSandboxPolicy } from '../../../src/exec/sandbox-policy.js';
import { parseJavaVersion } from '../../../src/exec/toolchains/index.js';
import {
  buildCacheDir,
  setupCache,
  validateCache,
} from '../../../src/pipeline/code/code-workspace.js';
import { toolchainWarnings } from '../../../src/pipeline/code/toolchain-warnings.js';

const config = (over: Partial<RepoConfig>): RepoConfig => ({ ...DEFAULT_REPO_CONFIG, ...over });
const calc = (op: string): string =>
  `public class Calc {\n  static int sum(int a, int b) { return a ${op} b; }\n  public static void main(String[] args) {\n    if (sum(2, 3) != 5) { System.err.println("sum(2, 3) != 5"); System.exit(1); }\n    System.out.println("ok");\n  }\n}\n`;
const CHECK = `sh -c 'javac -d "$TMPDIR/classes" Calc.java && java -cp "$TMPDIR/classes" Calc'`;

describe('Java in the sandbox', () => {
  let job: string;
  let worktree: string;
  let options: ValidationOptions;

  beforeAll(async () => {
    job = await realpath(await mkdtemp(join(tmpdir(), 'autofix-java-job-')));
    worktree = join(job, 'wt');
    const [home, tmp, cache] = ['home', 'tmp', 'caches/repo'].map((d) => join(job, d)) as [
      string,
      string,
      string,
    ];
    for (const dir of [worktree, home, tmp, cache, buildCacheDir(tmp)])
      await mkdir(dir, { recursive: true });
    options = {
      sandbox: basicSandboxPolicy('bwrap'),
      home,
      tmpDir: tmp,
      setupCache: setupCache(home, cache, 'bwrap'),
      validateCache: () => validateCache(cache, tmp, 'bwrap'),
    };
  });
  afterAll(async () => {
    await rm(job, { recursive: true, force: true });
  });

  it('compiles and runs with javac and java as a validate command: fails on the bug, passes with the fix', async () => {
    await writeFile(join(worktree, 'Calc.java'), calc('-'));
    const base = await runValidation(config({ validate: [CHECK] }), worktree, options);
    expect(base.results.map((r) => [r.exit_code, r.sandboxed, r.stderr.trim()])).toEqual([
      [1, true, 'sum(2, 3) != 5'],
    ]);
    await writeFile(join(worktree, 'Calc.java'), calc('+'));
    const fixed = await runValidation(config({ validate: [CHECK] }), worktree, options);
    expect(fixed.results.map((r) => [r.exit_code, r.stdout])).toEqual([[0, 'ok\n']]);
  }, 60_000);

  it('gives Maven in setup settings naming the egress proxy, through MAVEN_ARGS', async () => {
    await writeFile(
      join(worktree, 'pom.xml'),
      '<project><modelVersion>4.0.0</modelVersion><groupId>t</groupId><artifactId>t</artifactId><version>1</version></project>\n',
    );
    // Maven < 3.9 does not read MAVEN_ARGS: given on the command line here (Debian's is 3.8).
    const mvn = (args: string) =>
      `sh -c 'echo "$MAVEN_ARGS"; mvn -B -U ${args} org.apache.maven.plugins:maven-dependency-plugin:3.6.1:resolve 2>&1'`;
    const withSettings = await runValidation(
      config({ setup: [mvn('$MAVEN_ARGS')], validate: [] }),
      worktree,
      options,
    );
    const [named, ...log] = withSettings.results[0]!.stdout.split('\n');
    expect(named).toBe('--settings /run/autofix-egress/maven-settings.xml');
    // Maven Central is unreachable from here: the proxy's answer (502, it cannot resolve the
    // host) shows that Maven asked it, and Maven names the proxy of its settings.
    expect(log.join('\n')).toMatch(/repo\.maven\.apache\.org[^\n]*\b502\b/);
    expect(log.join('\n')).toMatch(/ProxyInfo\{host='127\.0\.0\.1'[^}]*port=3128/);
    // Without the settings, Maven 3.8 still finds the proxy through the JVM's properties
    // (JAVA_TOOL_OPTIONS), but no proxy of settings is in force: Maven ≥ 3.9's transport reads
    // only those.
    const without = await runValidation(
      config({ setup: [mvn('')], validate: [] }),
      worktree,
      options,
    );
    expect(without.results[0]!.stdout).not.toMatch(/ProxyInfo/);
  }, 120_000);

  it("warns when .java-version asks for another major than the sandbox's JDK", async () => {
    const { stderr } = await promisify(execFile)('java', ['-version']);
    const installed = parseJavaVersion(stderr)!;
    const other = installed === '8' ? '11' : '8';
    await writeFile(join(worktree, '.java-version'), `${other}\n`);
    try {
      expect(await toolchainWarnings(worktree)).toEqual([
        `The repository asks for Java ${other} (.java-version); commands ran on Java ${installed}.`,
      ]);
      await writeFile(join(worktree, '.java-version'), `${installed}\n`);
      expect(await toolchainWarnings(worktree)).toEqual([]);
    } finally {
      await rm(join(worktree, '.java-version'), { force: true });
    }
  }, 30_000);
});
