/**
 * Redaction on the way in: before a prompt leaves for the model, the run's known secret values
 * (and their encodings) are masked in it, whatever put them there — a repository file that
 * reached a secret, a validation log, an issue that quotes one. A prompt that held one is a
 * security event, reported with where in the prompt it stood (the file's `### path` heading, or
 * the quoted source) so an operator can find the file that carried it.
 */
import type { ChatMessage } from './types.js';

export interface PromptSecretHit {
  role: ChatMessage['role'];
  /** The file or quoted source the secret stood in, as the prompt names it. */
  source: string;
  line: number;
}

export interface MaskedPrompt {
  messages: ChatMessage[];
  hits: PromptSecretHit[];
}

const HEADING = /^#{2,4} `?([^\s`(]+)`?/;
const QUOTED = /<untrusted-data source="([^"]+)"/;

/** What the prompt says line `line` belongs to: the nearest file heading or quote above it. */
function sourceOf(lines: readonly string[], line: number): string {
  for (let i = line; i >= 0; i--) {
    const text = lines[i]!;
    const heading = HEADING.exec(text) ?? QUOTED.exec(text);
    if (heading) return heading[1]!;
  }
  return '(prompt text)';
}

function hitsIn(message: ChatMessage, mask: (text: string) => string): PromptSecretHit[] {
  const lines = message.content.split('\n');
  const hits: PromptSecretHit[] = [];
  lines.forEach((text, i) => {
    if (mask(text) !== text)
      hits.push({ role: message.role, source: sourceOf(lines, i), line: i + 1 });
  });
  // A secret split over lines (a PEM body, a wrapped encoding) changes no line alone.
  return hits.length > 0 ? hits : [{ role: message.role, source: sourceOf(lines, 0), line: 1 }];
}

export function maskPrompt(
  messages: readonly ChatMessage[],
  mask: (text: string) => string,
): MaskedPrompt {
  const hits: PromptSecretHit[] = [];
  const masked = messages.map((m) => {
    const content = mask(m.content);
    if (content === m.content) return m;
    hits.push(...hitsIn(m, mask));
    return { ...m, content };
  });
  return { messages: masked, hits };
}
