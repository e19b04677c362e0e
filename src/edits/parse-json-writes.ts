import { z } from 'zod';
import { AutofixError } from '../errors.js';
import { cleanPath } from './clean-path.js';
import { describeSchemaIssues } from './describe-schema-issues.js';
import { requireJsonAnswer } from './require-json-answer.js';
import type { ParsedEdits } from './types.js';

/** The limits of json-writes: one file at most 200 KB, all files together at most 500 KB. */
export const MAX_FILE_BYTES = 200 * 1024;
export const MAX_TOTAL_BYTES = 500 * 1024;

const SHAPE =
  '{"summary": "…", "writes": [{"path": "src/app.ts", "base_sha256": "<sha256 of the file you edited>", "content": "<full new content>"}]}';

const writeSchema = z
  .object({
    path: z.string().min(1, 'must name a file'),
    base_sha256: z
      .string()
      .regex(
        /^[0-9a-fA-F]{64}$/,
        'must be the 64-character hex sha256 of the file you edited (for a new file, of empty bytes: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855)',
      ),
    content: z.string(),
  })
  .strict();

const proposalSchema = z
  .object({
    summary: z.string(),
    writes: z.array(writeSchema).min(1, 'must list at least one file'),
  })
  .strict();

/**
 * json-writes format (docs/EDIT-FORMATS.md): `{summary, writes: [{path, base_sha256, content}]}` with a strict
 * schema, text-only contents and size limits. Every write carries the hash of the file it was
 * based on; the apply step refuses the whole set with STALE_CONTEXT if any differs from the disk.
 */
export function parseJsonWrites(text: string): ParsedEdits {
  const parsed = proposalSchema.safeParse(requireJsonAnswer(text, SHAPE));
  const problems = parsed.success ? [] : describeSchemaIssues(parsed.error);
  if (parsed.success) {
    const seen = new Set<string>();
    let total = 0;
    parsed.data.writes.forEach((w, i) => {
      const path = cleanPath(w.path);
      const bytes = Buffer.byteLength(w.content, 'utf8');
      total += bytes;
      if (seen.has(path))
        problems.push(`writes[${i}].path: "${path}" is written twice; send each file once`);
      seen.add(path);
      if (bytes > MAX_FILE_BYTES)
        problems.push(
          `writes[${i}].content: ${bytes} bytes is over the ${MAX_FILE_BYTES}-byte limit per file`,
        );
      if (w.content.includes('\0'))
        problems.push(`writes[${i}].content: contains a NUL byte; only text files can be written`);
    });
    if (total > MAX_TOTAL_BYTES)
      problems.push(`writes: ${total} bytes in total is over the ${MAX_TOTAL_BYTES}-byte limit`);
  }
  if (problems.length > 0 || !parsed.success)
    throw new AutofixError(
      'LLM_OUTPUT_INVALID',
      `Your JSON was refused; nothing was written.\n${problems.map((p) => `- ${p}`).join('\n')}\nExpected: ${SHAPE}`,
      { details: { problems } },
    );
  const files = parsed.data.writes.map((w) => ({
    path: cleanPath(w.path),
    op: 'write' as const,
    content: w.content,
    baseSha256: w.base_sha256.toLowerCase(),
  }));
  return {
    changeSet: {
      files,
      notes: { user: parsed.data.summary.trim() ? [parsed.data.summary.trim()] : [], debug: [] },
    },
    files: files.map((f) => ({ path: f.path, op: f.op, created: false })),
  };
}
