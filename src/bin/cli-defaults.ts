/**
 * Values the command declarations show in `--help` whose home modules load heavy dependencies
 * (zod, yaml, js-tiktoken): copied here so that `--help` stays light.
 * test/unit/bin/cli-defaults.test.ts checks each against its source.
 */
import type { EditFormat } from '../config/repo-config.js';

/** `EDIT_FORMATS` of `config/repo-config.ts`. */
export const EDIT_FORMAT_CHOICES = [
  'udiff',
  'fenced-files',
  'json-writes',
  'edit-ops',
] as const satisfies readonly EditFormat[];

/** `DEFAULT_CONTEXT_BUDGET` of `context/build-prompt-context.ts`. */
export const CONTEXT_BUDGET = 12_000;

/** `DEFAULTS.model` of `config/env.ts` (used when `AUTOFIX_MODEL` is unset). */
export const DEFAULT_MODEL = 'gpt-4.1-mini';

/** `max_repair_attempts` default of `config/repo-config.ts`. */
export const DEFAULT_REPAIR_ATTEMPTS = 3;
