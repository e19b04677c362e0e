/**
 * The WorkOrder, strict: explicit relative paths (the edit engine's path syntax — no drive
 * letters, nothing absolute, no `..` — and no globs), at least one acceptance command, at most 10
 * context files, all of them among the allowed files. Unknown keys are errors, so a typo is not
 * silently ignored.
 */
import { z } from 'zod';
import { checkPathSyntax } from '../../../edits/check-path-syntax.js';

export const MAX_CONTEXT_FILES = 10;

/** The edit engine's path syntax rules, plus: explicit paths only. */
function pathProblem(path: string): string | undefined {
  if (/[*?[\]{}]/.test(path)) return 'must be an explicit file path (no glob patterns)';
  return checkPathSyntax(path);
}

const relativePath = z.string().superRefine((path, ctx) => {
  const problem = pathProblem(path);
  if (problem) ctx.addIssue({ code: 'custom', message: `"${path}" ${problem}` });
});

export const workOrderSchema = z
  .object({
    id: z.string().trim().min(1, 'must be a non-empty string'),
    title: z.string().trim().min(1, 'must be a non-empty string'),
    intent: z.string().trim().min(1, 'must say what the change should achieve'),
    allowed_files: z.array(relativePath).min(1, 'must list at least one file'),
    forbidden: z.array(z.string()),
    acceptance_commands: z
      .array(z.string().trim().min(1, 'must be a non-empty command'))
      .min(1, 'must list at least one command'),
    context_files: z
      .array(relativePath)
      .max(MAX_CONTEXT_FILES, `must list at most ${MAX_CONTEXT_FILES} files`),
    notes: z.string().nullable().optional(),
  })
  .strict()
  .superRefine((order, ctx) => {
    const allowed = new Set(order.allowed_files);
    order.context_files.forEach((path, i) => {
      if (!allowed.has(path))
        ctx.addIssue({
          code: 'custom',
          path: ['context_files', i],
          message: `"${path}" is not in allowed_files (context_files must be a subset of allowed_files)`,
        });
    });
  });

export type WorkOrder = z.infer<typeof workOrderSchema>;
