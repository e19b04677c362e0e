/**
 * One structured LLM call of a stage: load the agent (with the repository's override), render
 * it, ask for JSON, validate with zod (one re-ask on failure, inside askJson).
 */
import type { z } from 'zod';
import { askJson } from '../llm/ask-json.js';
import { loadAgent, type AgentName } from '../llm/load-agent.js';
import { renderAgent, type TemplateData } from '../llm/render-agent.js';
import type { PipelinePorts, StageName } from './ports.js';

export async function askAgent<T>(
  ports: PipelinePorts,
  request: {
    agent: AgentName;
    stage: StageName;
    model: string;
    data: TemplateData;
    schema: z.ZodType<T>;
    schemaName: string;
  },
): Promise<T> {
  const agent = await loadAgent(request.agent, {
    ...(ports.agentsDir ? { agentsDir: ports.agentsDir } : {}),
    ...(ports.readOverride ? { readOverride: ports.readOverride } : {}),
  });
  const prompt = renderAgent(agent, request.data);
  const { data } = await askJson(
    ports.llm,
    {
      model: request.model,
      messages: prompt.messages,
      temperature: prompt.temperature,
      stage: request.stage,
      ...(ports.signal ? { signal: ports.signal } : {}),
    },
    request.schema,
    request.schemaName,
  );
  return data;
}
