/**
 * An agent file (`agents/<name>.md`): YAML front matter with the output contract, then the
 * system prompt after `<!-- system -->` and the user message after `<!-- user -->`, both with
 * `{{name}}` placeholders. Pure: text in, definition out.
 */
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { AutofixError } from '../errors.js';

/** Placeholders whose values are always untrusted, whatever the front matter says. */
export const ALWAYS_UNTRUSTED: ReadonlySet<string> = new Set([
  'issue_title',
  'issue_body',
  'issue_comments',
  'instructions',
  'feedback',
  'repo_guidance',
]);

const frontMatterSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9-]*$/),
    description: z.string().optional(),
    /** `TriageResult`, `FixPlan`, `PrSummary` (JSON) or `ChangeSet` (an edit format). */
    output_schema: z.string().min(1),
    output_format: z.enum(['json', 'edit-format', 'tools']),
    temperature: z.number().min(0).max(2).default(0),
    /** Placeholders holding untrusted text: quoted as data, allowed only in the user message. */
    untrusted: z.array(z.string()).default([]),
    /** Placeholders holding file contents: put in a markdown fence the content cannot close. */
    fenced: z.array(z.string()).default([]),
  })
  .strict();

export interface AgentDefinition {
  name: string;
  description: string | undefined;
  outputSchema: string;
  outputFormat: 'json' | 'edit-format' | 'tools';
  temperature: number;
  untrusted: ReadonlySet<string>;
  fenced: ReadonlySet<string>;
  systemTemplate: string;
  userTemplate: string;
  /** Where it came from, for messages: `agents/triage.md` or the repository override path. */
  source: string;
  /** True when read from the repository (`.github/autofix/agents/`), not shipped with Autofix. */
  override: boolean;
}

export const PLACEHOLDER = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/g;

export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''))];
}

function invalid(source: string, problem: string): AutofixError {
  return new AutofixError('CONFIG_INVALID', `Agent file ${source}: ${problem}`, {
    details: { source, problem },
  });
}

/** Splits `---\n<yaml>\n---\n<body>`; line endings normalised to LF. */
export function splitFrontMatter(
  text: string,
  source: string,
): { frontMatter: unknown; body: string } {
  const lf = text.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '');
  const match = /^---\n([\s\S]*?)\n---[^\S\n]*(?:\n|$)/.exec(lf);
  if (!match) throw invalid(source, 'must start with YAML front matter between `---` lines');
  try {
    return { frontMatter: parseYaml(match[1] ?? '') as unknown, body: lf.slice(match[0].length) };
  } catch (err) {
    throw invalid(source, `front matter is not valid YAML: ${(err as Error).message}`);
  }
}

export function parseAgent(text: string, source: string, override = false): AgentDefinition {
  const { frontMatter, body } = splitFrontMatter(text, source);
  const parsed = frontMatterSchema.safeParse(frontMatter);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `${i.path.join('.') || '(root)'}: ${i.message}`,
    );
    throw invalid(source, `invalid front matter: ${problems.join('; ')}`);
  }
  const fm = parsed.data;
  const userAt = body.indexOf('<!-- user -->');
  if (userAt === -1) throw invalid(source, 'has no `<!-- user -->` line starting the user message');
  // HTML comments document placeholders for authors; they are not sent to the model.
  const clean = (s: string): string => s.replace(/<!--[\s\S]*?-->\n?/g, '').trim();
  const systemTemplate = clean(body.slice(0, userAt));
  const userTemplate = clean(body.slice(userAt + '<!-- user -->'.length));
  const untrusted = new Set([...ALWAYS_UNTRUSTED, ...fm.untrusted]);
  assertNoUntrustedInSystem(systemTemplate, untrusted, source);
  return {
    name: fm.name,
    description: fm.description,
    outputSchema: fm.output_schema,
    outputFormat: fm.output_format,
    temperature: fm.temperature,
    untrusted,
    fenced: new Set(fm.fenced),
    systemTemplate,
    userTemplate,
    source,
    override,
  };
}

/** Untrusted text in the system message would carry the authority of our own instructions. */
export function assertNoUntrustedInSystem(
  systemTemplate: string,
  untrusted: ReadonlySet<string>,
  source: string,
): void {
  const leaked = placeholdersOf(systemTemplate).filter((p) => untrusted.has(p));
  if (leaked.length > 0)
    throw invalid(source, `untrusted placeholders in the system prompt: ${leaked.join(', ')}`);
}
