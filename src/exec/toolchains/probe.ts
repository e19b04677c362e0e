/**
 * The toolchain versions the sandbox has, asked once per process and toolchain (`go version`,
 * `java -version`): the same binaries as the sandbox's, which sees the worker's /usr and PATH.
 * A toolchain that is missing or does not answer within the timeout counts as absent.
 */
import { execFile } from 'node:child_process';
import { buildCommandEnv } from '../command-env.js';
import { GO, parseGoVersion } from './go.js';
import { JAVA, parseJavaVersion } from './java.js';

/** Runs a program and resolves its stdout and stderr together, or undefined when it fails. */
export type VersionCommand = (file: string, args: readonly string[]) => Promise<string | undefined>;

const ASK: Record<
  string,
  { argv: [string, ...string[]]; parse: (out: string) => string | undefined }
> = {
  [GO]: { argv: ['go', 'version'], parse: parseGoVersion },
  [JAVA]: { argv: ['java', '-version'], parse: parseJavaVersion },
};

/** Runs with the allowlisted environment of repository commands (PATH, never the secrets). */
export function runVersionCommand(baseEnv: NodeJS.ProcessEnv = process.env): VersionCommand {
  const env = buildCommandEnv({ baseEnv });
  return (file, args) =>
    new Promise((resolve) => {
      execFile(file, [...args], { env, timeout: 10_000 }, (err, stdout, stderr) =>
        resolve(err ? undefined : `${stdout}\n${stderr}`),
      );
    });
}

const asked = new Map<string, Promise<string | undefined>>();

/** The installed version of each named toolchain (undefined: absent); cached per process. */
export async function installedVersions(
  toolchains: readonly string[],
  run: VersionCommand,
  cache: Map<string, Promise<string | undefined>> = asked,
): Promise<Record<string, string | undefined>> {
  const entries = await Promise.all(
    [...new Set(toolchains)].map(async (name) => {
      const how = ASK[name];
      if (!how) return [name, undefined] as const;
      let version = cache.get(name);
      if (!version) {
        const [file, ...args] = how.argv;
        version = run(file, args).then((out) => (out === undefined ? undefined : how.parse(out)));
        cache.set(name, version);
      }
      return [name, await version] as const;
    }),
  );
  return Object.fromEntries(entries);
}
