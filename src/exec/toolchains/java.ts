/**
 * Java in the sandbox: Maven's local repository and Gradle's user home in the repository's cache
 * for `setup`. `validate` (no network) keeps a writable repository and Gradle home of the job's
 * own and reads setup's downloads read-only: Maven ≥ 3.9 through the chained
 * `maven.repo.local.tail` (older Maven ignores it and finds nothing offline), Gradle ≥ 6.2 through
 * `GRADLE_RO_DEP_CACHE`. A Gradle wrapper's distribution is not shared (the wrapper locks it
 * for writing): `./gradlew` in `validate` needs the image's Gradle instead.
 */
import { join } from 'node:path';
import type { CachePaths, RequestedVersion, ToolchainCacheEnv } from './types.js';
import { toolVersions } from './tool-versions.js';

export const JAVA = 'Java';

/**
 * Every command ends with its whole process group: a Gradle daemon would only cost its start
 * (and a JVM left for the sandbox's limits).
 */
const NO_DAEMON = { GRADLE_OPTS: '-Dorg.gradle.daemon=false' };

export const javaCacheEnv: ToolchainCacheEnv = {
  shared: ['maven', 'gradle/caches'],
  setup: ({ cache }: Pick<CachePaths, 'cache'>) => ({
    MAVEN_OPTS: `-Dmaven.repo.local=${join(cache, 'maven')}`,
    GRADLE_USER_HOME: join(cache, 'gradle'),
    ...NO_DAEMON,
  }),
  validate: ({ cache, build }: CachePaths) => ({
    MAVEN_OPTS: [
      `-Dmaven.repo.local=${join(build, 'maven')}`,
      `-Dmaven.repo.local.tail=${join(cache, 'maven')}`,
    ].join(' '),
    // Maven ≥ 3.9 reads its arguments from here; nothing to download without a network.
    MAVEN_ARGS: '--offline',
    GRADLE_USER_HOME: join(build, 'gradle'),
    GRADLE_RO_DEP_CACHE: join(cache, 'gradle', 'caches'),
    ...NO_DAEMON,
  }),
};

/** "17", "17.0.2", "temurin-17.0.2+8", "openjdk64-21" → the major version ("1.8" → "8"). */
function javaMajor(text: string): string | undefined {
  // A number at the start or after a separator: jenv's `openjdk64-17.0.2` is Java 17, not 64.
  const version = /(?:^|[-_\s])(\d+(?:\.\d+)*)/.exec(text)?.[1];
  if (!version) return undefined;
  const [first, second] = version.split('.');
  return first === '1' && second ? second : first;
}

/** `.java-version` (jenv, SDKMAN's) first, then `.tool-versions`' `java` line (asdf, mise). */
export function javaRequested(files: {
  javaVersion?: string;
  toolVersions?: string;
}): RequestedVersion | undefined {
  const fromFile = files.javaVersion?.split('\n')[0]?.trim();
  if (fromFile && javaMajor(fromFile))
    return { toolchain: JAVA, version: javaMajor(fromFile)!, source: '.java-version' };
  const asdf = files.toolVersions ? toolVersions(files.toolVersions).get('java') : undefined;
  const major = asdf ? javaMajor(asdf) : undefined;
  return major ? { toolchain: JAVA, version: major, source: '.tool-versions' } : undefined;
}

/** `java -version`'s first line (`openjdk version "17.0.15" 2025-04-15`) → "17". */
export function parseJavaVersion(output: string): string | undefined {
  const quoted = /version "([^"]+)"/.exec(output)?.[1];
  return quoted ? javaMajor(quoted) : undefined;
}

/**
 * Maven ignores the proxy variables and the JVM's proxy properties: in `setup` it reaches the
 * egress proxy only through a `<proxy>` of its settings, which the proxy's own folder carries
 * (setup-network.ts) and `MAVEN_ARGS=--settings …` names (Maven ≥ 3.9 reads MAVEN_ARGS).
 */
export function mavenProxySettings(port: number): string {
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`proxy port must be an integer from 1 to 65535, got ${port}`);
  const proxy = (protocol: string): string =>
    `    <proxy><id>autofix-egress-${protocol}</id><active>true</active><protocol>${protocol}</protocol>` +
    `<host>127.0.0.1</host><port>${port}</port></proxy>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">',
    '  <proxies>',
    proxy('https'),
    proxy('http'),
    '  </proxies>',
    '</settings>',
    '',
  ].join('\n');
}
