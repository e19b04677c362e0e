/**
 * The worker's sandbox policy, built once from the operator's settings: the mode
 * (`AUTOFIX_SANDBOX`, or the CLI's `--sandbox`), the unprivileged identity when we are root, the
 * directories to hide (the workdir with every mirror and job, the secrets' files, `.env`), the hosts
 * the operator vouches for (`AUTOFIX_NETWORK_ALLOW`) and the bot's own listeners, which `setup`
 * may never reach.
 */
import { networkInterfaces } from 'node:os';
import type { Settings } from '../config/env.js';
import { secretLocations } from '../config/secret-locations.js';
import { sandboxIdentityFor, type SandboxMode, type SandboxPolicy } from './sandbox-policy.js';

type SandboxSettings = Pick<
  Settings,
  | 'sandbox'
  | 'networkAllow'
  | 'redisUrl'
  | 'port'
  | 'host'
  | 'workdir'
  | 'privateKeyPath'
  | 'secretFiles'
  | 'setupCacheMaxMb'
>;

/** Our own listeners: Redis (from REDIS_URL) and the HTTP port on every local address. */
function ownListeners(
  settings: SandboxSettings,
  extraPorts: readonly number[],
): SandboxPolicy['deny'] {
  const deny: { host: string; port: number }[] = [];
  if (URL.canParse(settings.redisUrl)) {
    const redis = new URL(settings.redisUrl);
    deny.push({ host: redis.hostname.replace(/^\[|\]$/g, ''), port: Number(redis.port || 6379) });
  }
  const local = [
    'localhost',
    ...Object.values(networkInterfaces())
      .flat()
      .map((i) => i?.address)
      .filter((a): a is string => typeof a === 'string'),
  ];
  for (const port of [settings.port, ...extraPorts]) {
    for (const host of settings.host && !['0.0.0.0', '::'].includes(settings.host)
      ? [settings.host, 'localhost']
      : local)
      deny.push({ host, port });
  }
  return deny;
}

export function operatorSandbox(
  settings: SandboxSettings,
  options: {
    mode?: SandboxMode;
    extraPorts?: readonly number[];
    cwd?: string;
    /** Who turned the sandbox off when `mode` is `none` (a CLI flag, not the operator). */
    disabledBy?: string;
  } = {},
): SandboxPolicy {
  const runAs = sandboxIdentityFor(process.getuid?.());
  return {
    mode: options.mode ?? settings.sandbox,
    ...(runAs ? { runAs } : {}),
    trustedHosts: settings.networkAllow,
    deny: ownListeners(settings, options.extraPorts ?? []),
    hidden: [settings.workdir, ...secretLocations(settings, options.cwd)],
    ...(options.disabledBy ? { disabledBy: options.disabledBy } : {}),
    setupCacheMaxMb: settings.setupCacheMaxMb,
  };
}

/**
 * The sandbox of a CLI command (`autofix run`, `code-commit`, `work-order`): bubblewrap unless
 * the user typed `--sandbox none` (the environment's `AUTOFIX_SANDBOX` does not turn it off here).
 */
export function cliSandbox(
  settings: SandboxSettings,
  mode: SandboxMode | undefined,
): SandboxPolicy {
  return operatorSandbox(settings, {
    mode: mode ?? 'bwrap',
    disabledBy: 'the user ran autofix with --sandbox none',
  });
}
