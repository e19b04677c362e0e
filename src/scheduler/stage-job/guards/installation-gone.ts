import { abandonRun } from '../../../runs/end-run.js';
import type { StageJobGuard } from '../job-gate.js';

/**
 * The app lost the run's installation or repository after the run was accepted (deleted,
 * suspended, repository removed): the job ends here without asking for a token or posting
 * anything, and the run with it. A run accepted after a reinstall passes.
 */
export const endRunOfGoneInstallation: StageJobGuard = async ({ rt, run: data, stage, log }) => {
  const since = await rt.registry.goneSince(data.installationId, data.repository.fullName);
  if (since === undefined || data.acceptedAt > since) return undefined;
  await abandonRun(rt, data, 'the installation or repository is gone');
  rt.metrics.jobs.inc({ stage, outcome: 'abandoned' });
  log.info(
    { installationId: data.installationId, repo: data.repository.fullName },
    'the app lost this installation or repository: run ended, nothing posted',
  );
  return { stage, outcome: 'stop' };
};
