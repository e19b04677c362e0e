import {
  compareVersions,
  goRequested,
  installedVersions,
  javaRequested,
  mavenProxySettings,
  parseGoVersion,
  parseJavaVersion,
  toolchainSetupEnv,
  toolchainValidateEnv,
  toolVersions,
  versionWarnings,
  type VersionCommand,
} from '../../../src/exec/toolchains/index.js';
import {
  setupCache,
  VALIDATE_BUILD_DIR,
  VALIDATE_CACHE_DIR,
  validateCache,
} from '../../../src/pipeline/code/code-workspace.js';

describe('toolchain caches', () => {
  it('puts Go modules, Maven and Gradle downloads in the repository cache for setup, never a toolchain download', () => {
    expect(toolchainSetupEnv({ cache: '/h/.cache' })).toEqual({
      GOTOOLCHAIN: 'local',
      GOPATH: '/h/.cache/go',
      GOMODCACHE: '/h/.cache/go/pkg/mod',
      GOCACHE: '/h/.cache/go-build',
      MAVEN_OPTS: '-Dmaven.repo.local=/h/.cache/maven',
      GRADLE_USER_HOME: '/h/.cache/gradle',
      GRADLE_OPTS: '-Dorg.gradle.daemon=false',
    });
  });

  it("gives validate the same downloads to read, offline, and its writable caches in the job's folder", () => {
    const env = toolchainValidateEnv({ cache: '/ro', tmp: '/tmp', build: '/job' });
    expect(env).toEqual({
      GOTOOLCHAIN: 'local',
      GOPROXY: 'off',
      GOPATH: '/tmp/go',
      GOMODCACHE: '/ro/go/pkg/mod',
      GOCACHE: '/job/go-build',
      MAVEN_OPTS: '-Dmaven.repo.local=/job/maven -Dmaven.repo.local.tail=/ro/maven',
      MAVEN_ARGS: '--offline',
      GRADLE_USER_HOME: '/job/gradle',
      GRADLE_RO_DEP_CACHE: '/ro/gradle/caches',
      GRADLE_OPTS: '-Dorg.gradle.daemon=false',
    });
    // The read-only paths are setup's: what setup wrote is what validate reads.
    const setup = toolchainSetupEnv({ cache: '/ro' });
    expect(env.GOMODCACHE).toBe(setup.GOMODCACHE);
    expect(env.MAVEN_OPTS).toContain(
      setup.MAVEN_OPTS!.replace('maven.repo.local', 'maven.repo.local.tail'),
    );
    expect(env.GRADLE_RO_DEP_CACHE).toBe(`${setup.GRADLE_USER_HOME}/caches`);
  });

  it('binds the repository cache read-only into validate under the sandbox, and names it without one', () => {
    // Only the toolchains' own folders, and only those setup made.
    const made = new Set(['/w/caches/o/r/go/pkg/mod', '/w/caches/o/r/gradle/caches']);
    expect(validateCache('/w/caches/o/r', '/job/tmp', 'bwrap', (p) => made.has(p))).toEqual({
      binds: [
        {
          src: '/w/caches/o/r/go/pkg/mod',
          dest: `${VALIDATE_CACHE_DIR}/go/pkg/mod`,
          readOnly: true,
        },
        {
          src: '/w/caches/o/r/gradle/caches',
          dest: `${VALIDATE_CACHE_DIR}/gradle/caches`,
          readOnly: true,
        },
        // The job's build caches: writable, kept across its commands, never another job's.
        { src: '/job/tmp/build', dest: VALIDATE_BUILD_DIR },
      ],
      env: expect.objectContaining({
        GOMODCACHE: `${VALIDATE_CACHE_DIR}/go/pkg/mod`,
        GOCACHE: `${VALIDATE_BUILD_DIR}/go-build`,
        GRADLE_RO_DEP_CACHE: `${VALIDATE_CACHE_DIR}/gradle/caches`,
      }) as unknown,
    });
    expect(validateCache('/w/caches/o/r', '/job/tmp', 'none')).toEqual({
      binds: [],
      env: expect.objectContaining({
        GOMODCACHE: '/w/caches/o/r/go/pkg/mod',
        GOCACHE: '/job/tmp/build/go-build',
      }) as unknown,
    });
    // Setup sees the same folder writable at HOME/.cache, with the same layout below it.
    expect(setupCache('/job/home', '/w/caches/o/r', 'bwrap').env).toMatchObject({
      GOMODCACHE: '/job/home/.cache/go/pkg/mod',
      GRADLE_USER_HOME: '/job/home/.cache/gradle',
    });
  });
});

describe('versions a repository asks for', () => {
  it("reads go.mod's toolchain, else its go line, else .tool-versions' golang", () => {
    const mod = 'module x\n\ngo 1.21 // minimum\n';
    expect(goRequested({ goMod: mod })).toEqual({
      toolchain: 'Go',
      version: '1.21',
      source: 'go.mod',
    });
    expect(goRequested({ goMod: `${mod}toolchain go1.23.2\n` })).toEqual({
      toolchain: 'Go',
      version: '1.23.2',
      source: 'go.mod toolchain',
    });
    expect(goRequested({ toolVersions: 'nodejs 20.1.0\ngolang 1.22.1\n' })).toMatchObject({
      version: '1.22.1',
      source: '.tool-versions',
    });
    // A `go` inside a require block or a comment is not the directive.
    expect(
      goRequested({ goMod: 'module x\n// go 1.30\nrequire (\n\tgo.uber.org/zap v1.0.0\n)\n' }),
    ).toBeUndefined();
    expect(goRequested({})).toBeUndefined();
  });

  it('reads .java-version, else the java line of .tool-versions, as a major version', () => {
    expect(javaRequested({ javaVersion: '17\n' })).toEqual({
      toolchain: 'Java',
      version: '17',
      source: '.java-version',
    });
    expect(javaRequested({ javaVersion: '1.8' })?.version).toBe('8');
    expect(javaRequested({ javaVersion: 'temurin64-21.0.2' })?.version).toBe('21');
    expect(
      javaRequested({ toolVersions: '# tools\njava temurin-11.0.22+7 17\npython 3.12\n' }),
    ).toEqual({ toolchain: 'Java', version: '11', source: '.tool-versions' });
    expect(javaRequested({ javaVersion: 'system', toolVersions: 'nodejs 20' })).toBeUndefined();
  });

  it('parses .tool-versions: first version of each tool, comments ignored', () => {
    expect([...toolVersions('golang 1.22 1.21 # newest first\n\nruby 3.3\ngolang 1.10\n')]).toEqual(
      [
        ['golang', '1.22'],
        ['ruby', '3.3'],
      ],
    );
  });

  it('parses what `go version` and `java -version` print', () => {
    expect(parseGoVersion('go version go1.19.8 linux/amd64\n')).toBe('1.19.8');
    expect(parseGoVersion('go version go1.23rc1 linux/amd64')).toBe('1.23');
    expect(parseJavaVersion('openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime')).toBe('17');
    expect(parseJavaVersion('java version "1.8.0_401"')).toBe('8');
    expect(parseJavaVersion('bash: java: not found')).toBeUndefined();
  });

  it('compares dotted versions by their numbers', () => {
    expect(compareVersions('1.19.8', '1.23')).toBeLessThan(0);
    expect(compareVersions('1.23.0', '1.23')).toBe(0);
    expect(compareVersions('1.10', '1.9')).toBeGreaterThan(0);
  });
});

describe('versionWarnings', () => {
  it('warns when Go is older than go.mod asks, and not when newer', () => {
    const go = { toolchain: 'Go', version: '1.23', source: 'go.mod' };
    expect(versionWarnings([go], { Go: '1.19.8' })).toEqual([
      'The repository asks for Go 1.23 (go.mod); commands ran on Go 1.19.8.',
    ]);
    expect(versionWarnings([go], { Go: '1.24.1' })).toEqual([]);
  });

  it('warns when the Java major differs either way, and when the toolchain is missing', () => {
    const java = { toolchain: 'Java', version: '21', source: '.java-version' };
    expect(versionWarnings([java], { Java: '17' })).toEqual([
      'The repository asks for Java 21 (.java-version); commands ran on Java 17.',
    ]);
    expect(versionWarnings([{ ...java, version: '11' }], { Java: '17' })).toHaveLength(1);
    expect(versionWarnings([java], { Java: '21' })).toEqual([]);
    expect(versionWarnings([java], {})).toEqual([
      'The repository asks for Java 21 (.java-version); the sandbox has no Java.',
    ]);
  });
});

describe('installedVersions', () => {
  it('asks each toolchain once per cache, and counts one that fails as absent', async () => {
    const calls: string[] = [];
    const run: VersionCommand = (file, args) => {
      calls.push([file, ...args].join(' '));
      return Promise.resolve(file === 'go' ? 'go version go1.22.3 linux/arm64' : undefined);
    };
    const cache = new Map<string, Promise<string | undefined>>();
    expect(await installedVersions(['Go', 'Java', 'Go'], run, cache)).toEqual({
      Go: '1.22.3',
      Java: undefined,
    });
    expect(await installedVersions(['Go'], run, cache)).toEqual({ Go: '1.22.3' });
    expect(calls).toEqual(['go version', 'java -version']);
  });
});

describe('mavenProxySettings', () => {
  it('names the proxy for https and http, on the given port only', () => {
    const xml = mavenProxySettings(3128);
    expect(xml.match(/<protocol>(\w+)<\/protocol>/g)).toEqual([
      '<protocol>https</protocol>',
      '<protocol>http</protocol>',
    ]);
    expect(xml.match(/<host>[^<]*<\/host><port>\d+<\/port>/g)).toEqual([
      '<host>127.0.0.1</host><port>3128</port>',
      '<host>127.0.0.1</host><port>3128</port>',
    ]);
    expect(xml).not.toMatch(/nonProxyHosts|<username>|<password>/);
    expect(() => mavenProxySettings(0)).toThrow(/port/);
  });
});
