/** The sandbox the replayed runs use: the one asked for, else bwrap when it starts here (as the pipeline would), else none, said aloud. */
import { spawnSync } from 'node:child_process';

export function sandboxMode(
  asked: string | undefined,
  log: (line: string) => void,
): 'bwrap' | 'none' {
  if (asked === 'bwrap' || asked === 'none') return asked;
  const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-all', 'true']);
  if (probe.status === 0) return 'bwrap';
  log('bubblewrap does not start here: the runs use --sandbox none');
  return 'none';
}
