/**
 * Whether a run waits for a maintainer's approval of its plan before any code is written
 * (`plan_approval` in `.github/autofix.yml`): never, always, or (`auto`) when triage's risk or the
 * plan's file count reaches `plan_approval_auto`'s thresholds.
 */
import type { RepoConfig } from '../config/repo-config.js';
import type { FixPlan, Risk, TriageResult } from '../contracts.js';

const RISK_ORDER: Record<Risk, number> = { LOW: 0, MEDIUM: 1, HIGH: 2 };

export function needsPlanApproval(
  config: Pick<RepoConfig, 'plan_approval' | 'plan_approval_auto'>,
  triage: Pick<TriageResult, 'risk'>,
  plan: Pick<FixPlan, 'file_changes'>,
): boolean {
  switch (config.plan_approval) {
    case 'off':
      return false;
    case 'required':
      return true;
    case 'auto': {
      const { risk, files } = config.plan_approval_auto;
      return RISK_ORDER[triage.risk] >= RISK_ORDER[risk] || plan.file_changes.length >= files;
    }
  }
}
