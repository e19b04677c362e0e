import type { FileChangePlan } from '../../../src/contracts.js';
import { needsPlanApproval } from '../../../src/runs/needs-plan-approval.js';

const files = (n: number): { file_changes: FileChangePlan[] } => ({
  file_changes: Array.from({ length: n }, (_, i) => ({ path: `f${i}.ts`, operation: 'MODIFY' })),
});
const auto = { risk: 'MEDIUM', files: 5 } as const;

describe('needsPlanApproval', () => {
  it('never with off, always with required', () => {
    const high = { risk: 'HIGH' } as const;
    expect(
      needsPlanApproval({ plan_approval: 'off', plan_approval_auto: auto }, high, files(9)),
    ).toBe(false);
    const low = { risk: 'LOW' } as const;
    expect(
      needsPlanApproval({ plan_approval: 'required', plan_approval_auto: auto }, low, files(1)),
    ).toBe(true);
  });

  it('with auto, from the risk threshold up', () => {
    const config = { plan_approval: 'auto', plan_approval_auto: auto } as const;
    expect(needsPlanApproval(config, { risk: 'LOW' }, files(1))).toBe(false);
    expect(needsPlanApproval(config, { risk: 'MEDIUM' }, files(1))).toBe(true);
    expect(needsPlanApproval(config, { risk: 'HIGH' }, files(1))).toBe(true);
    const highOnly = {
      plan_approval: 'auto',
      plan_approval_auto: { ...auto, risk: 'HIGH' },
    } as const;
    expect(needsPlanApproval(highOnly, { risk: 'MEDIUM' }, files(1))).toBe(false);
  });

  it('with auto, from the file count up, whatever the risk', () => {
    const config = {
      plan_approval: 'auto',
      plan_approval_auto: { risk: 'HIGH', files: 3 },
    } as const;
    expect(needsPlanApproval(config, { risk: 'LOW' }, files(2))).toBe(false);
    expect(needsPlanApproval(config, { risk: 'LOW' }, files(3))).toBe(true);
  });
});
