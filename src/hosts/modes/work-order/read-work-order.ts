/**
 * Loads and validates a work order before anything runs: JSON, the work-order schema, and every
 * acceptance command split into an argv without a shell (operators are refused, not run).
 */
import { readFile } from 'node:fs/promises';
import { describeSchemaIssues } from '../../../edits/describe-schema-issues.js';
import { sha256 } from '../../../edits/sha256.js';
import { AutofixError, isAutofixError } from '../../../errors.js';
import { splitCommand } from '../../../exec/index.js';
import { workOrderSchema, type WorkOrder } from './work-order-schema.js';

export interface LoadedWorkOrder {
  order: WorkOrder;
  /** sha256 of the file's bytes: part of the deterministic run id. */
  sha256: string;
  /** The acceptance commands as argv, in order. */
  acceptance: string[][];
}

function invalid(file: string, problems: string[]): AutofixError {
  return new AutofixError(
    'CONFIG_INVALID',
    `Invalid work order ${file} (nothing was run):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    { details: { file, problems } },
  );
}

export async function readWorkOrder(file: string): Promise<LoadedWorkOrder> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw invalid(file, [`cannot read the file: ${(err as Error).message}`]);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw invalid(file, [`not valid JSON: ${(err as Error).message}`]);
  }
  const parsed = workOrderSchema.safeParse(raw);
  if (!parsed.success) throw invalid(file, describeSchemaIssues(parsed.error));
  const problems: string[] = [];
  const acceptance = parsed.data.acceptance_commands.map((command, i) => {
    try {
      return splitCommand(command);
    } catch (err) {
      if (!isAutofixError(err)) throw err;
      problems.push(`acceptance_commands[${i}]: ${err.message}`);
      return [];
    }
  });
  if (problems.length > 0) throw invalid(file, problems);
  return { order: parsed.data, sha256: sha256(bytes), acceptance };
}
