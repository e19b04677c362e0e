/**
 * A server that cannot listen ends its process at start, saying why and what to set (issue
 * #37): a busy port, a port that needs privileges, a HOST that is not this machine's. Probot's
 * own message ("Port 3000 is already in use…") left `serve` alive, connected to Redis and
 * listening nowhere.
 */
import { AutofixError } from '../../errors.js';

/**
 * The error to end the process with when `listen` failed. `setting` names what chose the port
 * (`PORT`, `--metrics-port`); anything but the known causes is returned as it was.
 */
export function listenError(
  err: unknown,
  where: { host: string; port: number; setting: string },
): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const { host, port, setting } = where;
  const address = `${host}:${port}`;
  const cause =
    code === 'EADDRINUSE'
      ? `the port is already in use by another process. Stop it, or set ${setting} to a free port.`
      : code === 'EACCES'
        ? `permission denied (ports below 1024 need root or CAP_NET_BIND_SERVICE). Set ${setting} to 1024 or above.`
        : code === 'EADDRNOTAVAIL'
          ? `${host} is not an address of this machine. Set HOST to one of its addresses, or 0.0.0.0 for all.`
          : undefined;
  if (!cause) return err;
  return new AutofixError(
    'CONFIG_INVALID',
    `Cannot listen on ${address} (${setting}=${port}): ${cause}`,
    {
      details: { host, port, setting, code },
      cause: err,
    },
  );
}
