/**
 * Fills an agent's `{{name}}` placeholders with the stage's data: one pass (values are never
 * re-scanned, so data cannot inject placeholders), no expressions, untrusted values quoted.
 */
import { AutofixError } from '../errors.js';
import type { AgentDefinition } from './parse-agent.js';
import { PLACEHOLDER, placeholdersOf } from './parse-agent.js';
import { fence, quoteUntrusted } from './quote-untrusted.js';
import type { ChatMessage } from './types.js';

/** Strings go in as they are; other values as pretty JSON; null as an empty string. */
export type TemplateValue = string | number | boolean | null | object;
export type TemplateData = Readonly<Record<string, TemplateValue | undefined>>;

export interface RenderedPrompt {
  messages: ChatMessage[];
  temperature: number;
  agent: AgentDefinition;
}

function format(value: TemplateValue): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value, null, 2);
}

function fill(template: string, data: TemplateData, agent: AgentDefinition): string {
  return template.replace(PLACEHOLDER, (_match, name: string) => {
    let text = format(data[name] as TemplateValue);
    if (agent.fenced.has(name)) text = fence(text);
    return agent.untrusted.has(name) ? quoteUntrusted(name, text) : text;
  });
}

export function renderAgent(agent: AgentDefinition, data: TemplateData): RenderedPrompt {
  const needed = placeholdersOf(`${agent.systemTemplate}\n${agent.userTemplate}`);
  const missing = needed.filter((name) => data[name] === undefined);
  if (missing.length > 0) {
    const available = Object.keys(data).filter((k) => data[k] !== undefined);
    const message = `Agent ${agent.source} uses ${missing.map((m) => `{{${m}}}`).join(', ')}, which the ${agent.name} stage does not provide (available: ${available.join(', ') || 'none'}).`;
    // A repository's override is configuration; a gap in a shipped agent is our bug.
    throw new AutofixError(agent.override ? 'CONFIG_INVALID' : 'INTERNAL', message, {
      details: { source: agent.source, missing, available },
      recoverable: false,
    });
  }
  return {
    messages: [
      { role: 'system', content: fill(agent.systemTemplate, data, agent) },
      { role: 'user', content: fill(agent.userTemplate, data, agent) },
    ],
    temperature: agent.temperature,
    agent,
  };
}
