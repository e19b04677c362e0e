/**
 * The network of one `setup` command (issue #11): none of its own — the sandbox has only a private
 * loopback — but a bridge on that loopback to the allowlisting proxy (egress/), whose Unix socket
 * is bound into the sandbox. Package managers find the proxy through the usual variables (Maven
 * through a settings file beside the socket). The proxy refuses loopback, private and link-local
 * addresses, hosts off the list, and the bot's own listeners; what it refused is reported by host.
 */
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../logger.js';
import { bridgeArgv } from './egress/bridge-source.js';
import { DEFAULT_EGRESS_ALLOW } from './egress/egress-policy.js';
import { proxyEnv, startEgressProxy, type EgressReport } from './egress/egress-proxy.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import { mavenProxySettings } from './toolchains/java.js';

/** Where the proxy's socket directory appears inside the sandbox (below the hidden /run). */
const SOCKET_DIR_INSIDE = '/run/autofix-egress';
const SOCKET_NAME = 'proxy.sock';
/** Beside the socket: Maven's settings naming the proxy (Maven reads no proxy variable). */
const MAVEN_SETTINGS = 'maven-settings.xml';
/** The bridge's port on the sandbox's own loopback (nothing else listens there). */
const BRIDGE_PORT = 3128;

export interface SetupNetwork {
  /** The command, started by the bridge once it listens. */
  wrap(argv: readonly string[]): string[];
  /** Proxy variables for the command. */
  env: Record<string, string>;
  /** The socket directory, bound into the sandbox. */
  bind: { src: string; dest: string };
  report(): EgressReport;
  close(): Promise<void>;
}

export async function openSetupNetwork(options: {
  policy: SandboxPolicy;
  /** The repository's `network_allow` (the defaults are added here). */
  allow: readonly string[];
  logger?: Logger;
}): Promise<SetupNetwork> {
  // Short path: a Unix socket path must stay under 108 bytes.
  const dir = await mkdtemp(join(tmpdir(), 'afx-net-'));
  try {
    const socketPath = join(dir, SOCKET_NAME);
    const proxy = await startEgressProxy({
      socketPath,
      policy: {
        allow: [...DEFAULT_EGRESS_ALLOW, ...options.allow],
        trusted: options.policy.trustedHosts,
        deny: options.policy.deny,
      },
      ...(options.logger ? { logger: options.logger } : {}),
    });
    // Only the sandbox user (unprivileged when we are root, else ourselves) may connect: the
    // proxy reaches the operator's trusted hosts, which other local users must not borrow.
    await chmod(dir, 0o700);
    await chmod(socketPath, 0o600);
    await writeFile(join(dir, MAVEN_SETTINGS), mavenProxySettings(BRIDGE_PORT), { mode: 0o644 });
    const runAs = options.policy.runAs;
    if (runAs) {
      await chown(socketPath, runAs.uid, runAs.gid);
      await chown(dir, runAs.uid, runAs.gid);
    }
    let closed: Promise<void> | undefined;
    return {
      wrap: (argv) =>
        bridgeArgv(process.execPath, `${SOCKET_DIR_INSIDE}/${SOCKET_NAME}`, BRIDGE_PORT, [...argv]),
      env: {
        ...proxyEnv(BRIDGE_PORT),
        MAVEN_ARGS: `--settings ${SOCKET_DIR_INSIDE}/${MAVEN_SETTINGS}`,
      },
      bind: { src: dir, dest: SOCKET_DIR_INSIDE },
      report: () => proxy.report(),
      close: () =>
        (closed ??= proxy
          .close()
          .finally(() => rm(dir, { recursive: true, force: true }).catch(() => undefined))),
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
}
