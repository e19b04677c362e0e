/**
 * The checks every stage job passes, in order, before its stage runs. A new one is a file beside
 * these and a line here; fair share between installations is the queues' order
 * (`../../fair-share/`), not a guard.
 */
import type { StageJobGuard } from '../job-gate.js';
import { endRunOfGoneInstallation } from './installation-gone.js';
import { delayOverInstallationLimit } from './installation-limit.js';
import { completeEndedRun } from './run-ended.js';
import { leaveParkedRun } from './run-parked.js';
import { parkOverBudget } from './budget.js';
import { refuseWhileShuttingDown } from './shutting-down.js';

export const STAGE_JOB_GUARDS: readonly StageJobGuard[] = [
  refuseWhileShuttingDown,
  endRunOfGoneInstallation,
  delayOverInstallationLimit,
  completeEndedRun,
  leaveParkedRun,
  parkOverBudget,
];
