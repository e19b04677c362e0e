import type { z } from 'zod';

/** Zod issues as `writes[0].base_sha256: …` lines the LLM can act on. */
export function describeSchemaIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const where = issue.path.reduce<string>(
      (acc, key) =>
        typeof key === 'number'
          ? `${acc}[${key}]`
          : acc === ''
            ? String(key)
            : `${acc}.${String(key)}`,
      '',
    );
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`
        : issue.message;
    return `${where || '(top level)'}: ${message}`;
  });
}
