/**
 * zod schemas of what the LLM must return, one per agent output contract. They accept small,
 * harmless slips of weaker models (`"low"` for `LOW`, a numeric step id) and reject the rest.
 */
import { z } from 'zod';
import type { FixPlan, TriageResult } from '../contracts.js';
import { normaliseDescription } from '../git/commit-description.js';

const upper = (v: unknown): unknown => (typeof v === 'string' ? v.trim().toUpperCase() : v);
const lower = (v: unknown): unknown => (typeof v === 'string' ? v.trim().toLowerCase() : v);

const COMMIT_TYPES = ['fix', 'feat', 'docs', 'chore', 'refactor'] as const;
const commitType = z.preprocess(lower, z.enum(COMMIT_TYPES));

/** Repository-relative POSIX path as the LLM names it; the path policy checks it for real later. */
const repoPath = z
  .string()
  .trim()
  .min(1, 'must be a non-empty path')
  .transform((p) => p.replace(/^\.\//, ''));

export const triageResultSchema = z.object({
  risk: z.preprocess(upper, z.enum(['LOW', 'MEDIUM', 'HIGH'])),
  classification: commitType,
  affected_files: z.array(repoPath).default([]),
  summary: z.string().trim().min(1, 'must say in a sentence what the issue asks for'),
}) satisfies z.ZodType<TriageResult, unknown>;

const lineRange = z
  .tuple([z.number().int().min(1), z.number().int().min(1)])
  .refine(([start, end]) => start <= end, 'start line must not be after end line');

export const fixPlanSchema = z.object({
  branch_name: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._/-]+$/, 'letters, digits, ".", "_", "-" and "/" only')
    .refine(
      (b) => !b.includes('..') && !b.startsWith('/') && !b.endsWith('/'),
      'not a valid git branch name',
    ),
  commit_type: commitType,
  scope: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]+$/, 'lower-case letters, digits and "-" only (used in "type(scope): …")'),
  // Normalised here (prefix, period, tense, casing). One that is not a string or too short to use
  // after that is dropped, not refused (no retry for a cosmetic field): the commit subject then
  // comes from the steps. Fitted to 72 characters at commit (`src/pipeline/commit-subject.ts`).
  commit_subject: z
    .unknown()
    .transform((s) => {
      const text = typeof s === 'string' ? normaliseDescription(s) : '';
      return text.length >= 10 ? text : undefined;
    })
    .optional(),
  plan_steps: z
    .array(
      z.object({
        id: z.union([z.string().min(1), z.number().int()]).transform(String),
        description: z.string().trim().min(1),
      }),
    )
    .min(1, 'needs at least one step'),
  file_changes: z
    .array(
      z.object({
        path: repoPath,
        operation: z.preprocess(upper, z.enum(['CREATE', 'MODIFY', 'DELETE'])),
        line_range: lineRange.optional(),
      }),
    )
    .min(1, 'needs at least one file change')
    .refine(
      (changes) => new Set(changes.map((c) => c.path)).size === changes.length,
      'each path may appear only once',
    ),
  validation_commands: z.array(z.string().trim().min(1)).default([]),
}) satisfies z.ZodType<FixPlan, unknown>;

export interface PrSummary {
  summary: string;
}

export const prSummarySchema = z.object({
  summary: z.string().trim().min(20, 'must be a full sentence or two').max(2000),
}) satisfies z.ZodType<PrSummary, unknown>;

/** The reproducer's answer: one new test file and the command that runs just it. */
export interface ReproductionAnswer {
  path: string;
  content: string;
  command: string;
  test_name: string;
}

export const reproductionAnswerSchema = z.object({
  path: z.string().trim().min(1).max(300),
  // Real test files run long (upstream axios tests are over 20,000 characters).
  content: z.string().min(1).max(80_000),
  command: z.string().trim().min(1).max(300),
  test_name: z.string().trim().min(1).max(200),
}) satisfies z.ZodType<ReproductionAnswer, unknown>;

/** Output schemas by the name agent front matter uses (`output_schema:`). */
export const OUTPUT_SCHEMAS = {
  TriageResult: triageResultSchema,
  FixPlan: fixPlanSchema,
  PrSummary: prSummarySchema,
  ReproductionAnswer: reproductionAnswerSchema,
} as const;

export type OutputSchemaName = keyof typeof OUTPUT_SCHEMAS;
