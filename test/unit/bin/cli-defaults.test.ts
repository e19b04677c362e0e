/** The copies that keep `--help` light match their sources. */
import {
  CONTEXT_BUDGET,
  DEFAULT_MODEL,
  DEFAULT_REPAIR_ATTEMPTS,
  EDIT_FORMAT_CHOICES,
} from '../../../src/bin/cli-defaults.js';
import { DEFAULTS } from '../../../src/config/env.js';
import { DEFAULT_REPO_CONFIG, EDIT_FORMATS } from '../../../src/config/repo-config.js';
import { DEFAULT_CONTEXT_BUDGET } from '../../../src/context/build-prompt-context.js';

describe('CLI defaults', () => {
  it('match the values they copy', () => {
    expect(EDIT_FORMAT_CHOICES).toEqual(EDIT_FORMATS);
    expect(CONTEXT_BUDGET).toBe(DEFAULT_CONTEXT_BUDGET);
    expect(DEFAULT_MODEL).toBe(DEFAULTS.model);
    expect(DEFAULT_REPAIR_ATTEMPTS).toBe(DEFAULT_REPO_CONFIG.max_repair_attempts);
  });
});
