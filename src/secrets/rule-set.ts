/**
 * The maintained rule set: secretlint's recommended preset (`@secretlint/secretlint-rule-preset-
 * recommend`: GitHub, GitLab, AWS, GCP, Azure-less cloud keys, Slack, npm, OpenAI, Anthropic,
 * private keys, basic auth and database URLs with passwords, …), run offline through
 * `@secretlint/core`'s `lintSource`. Two changes to its defaults: the `secretlint-disable`
 * comment filter is left out (the model writes the text it would be read from), and AWS access
 * key ids are looked for too (`enableIDScanRule`; account ids are not secrets).
 *
 * Pinned to 12.0.0, the last release for Node 20 (12.1 and later need Node 22).
 */
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig, SecretLintRuleCreator } from '@secretlint/types';

const FILTER_COMMENTS = '@secretlint/secretlint-rule-filter-comments';
const AWS = '@secretlint/secretlint-rule-aws';

const CONFIG: SecretLintCoreConfig = {
  rules: (rules as SecretLintRuleCreator[])
    .filter((rule) => rule.meta.id !== FILTER_COMMENTS)
    .map((rule) =>
      rule.meta.id === AWS
        ? {
            id: rule.meta.id,
            rule,
            options: { enableIDScanRule: true },
            allowMessageIds: ['AWSAccountID'],
          }
        : { id: rule.meta.id, rule },
    ),
};

export interface RuleHit {
  start: number;
  end: number;
  /** The rule's short name and what it found, e.g. `github: GITHUB_TOKEN`. */
  rule: string;
}

/**
 * secretlint's profiler keeps every mark it ever made in its own arrays (searched on each new
 * mark): a long-lived worker would slow down and grow with every scan. Emptied after each one
 * (the arrays it returns are its own). Node's performance timeline still holds its marks: not
 * cleared here, since the profiler measures between them later.
 */
async function forgetProfile(): Promise<void> {
  (await secretLintProfiler.getEntries()).length = 0;
  (await secretLintProfiler.getMeasures()).length = 0;
}

/** The rule set's findings in one file's text (the values are never kept). */
export async function ruleSetHits(path: string, text: string): Promise<RuleHit[]> {
  const result = await lintSource({
    source: { filePath: path, content: text, contentType: 'text' },
    options: { config: CONFIG, maskSecrets: true, noPhysicFilePath: true },
  });
  await forgetProfile();
  return result.messages.map((m) => ({
    start: m.range[0],
    end: m.range[1],
    rule: `${m.ruleId.replace('@secretlint/secretlint-rule-', '')}: ${m.messageId}`,
  }));
}
