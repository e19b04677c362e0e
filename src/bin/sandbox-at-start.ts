/**
 * `serve` and `worker` refuse to start when the sandbox does not work here (issue #11): a worker
 * that would run repository code unsandboxed, or not at all, must say so at once with the fix,
 * not at a maintainer's first run. With `AUTOFIX_SANDBOX=none` they start, and say loudly what
 * that means.
 */
import type { Settings } from '../config/env.js';
import {
  checkSandbox,
  operatorSandbox,
  UNSANDBOXED_WARNING,
  type SandboxPolicy,
} from '../exec/index.js';
import type { Logger } from '../logger.js';

export async function sandboxAtStart(
  settings: Settings,
  log: Logger,
  options: { extraPorts?: readonly number[] } = {},
): Promise<SandboxPolicy> {
  const policy = operatorSandbox(settings, options);
  if (policy.mode === 'none') {
    log.warn(`AUTOFIX_SANDBOX=none: ${UNSANDBOXED_WARNING} Every pull request will say so.`);
    return policy;
  }
  await checkSandbox(policy, undefined, 'AUTOFIX_SANDBOX=none');
  log.info(
    policy.runAs
      ? `sandbox ready: repository commands run under bubblewrap as uid ${policy.runAs.uid}, without capabilities`
      : 'sandbox ready: repository commands run under bubblewrap in their own user namespace, without capabilities',
  );
  return policy;
}
