/**
 * The tool strategy: round 0 is a tool loop (`runToolLoop`) that starts from the same prompt data
 * as the one-shot agent (the ranked view, the plan) and may read, search, run tests and edit
 * through the tools while setup and the baseline run; a repair continues the same conversation
 * with the failure. Every edit goes through the edit engine (`propose_edit`), so path policy,
 * `git apply --check` and the cut-off and lazy-answer rules hold as for one-shot answers; after
 * each round the change is validated exactly as one-shot's is.
 */
import { renderFilesToReadNext, type FileToReadNext } from '../../context/files-to-read-next.js';
import { runToolLoop } from '../../agent-loop/run-tool-loop.js';
import type { LoopLimits } from '../../agent-loop/loop-limits.js';
import { LOOP_END_TEXT, type LoopEnd } from '../../agent-loop/loop-step.js';
import type { ValidationRun } from '../../exec/index.js';
import { loadAgent } from '../../llm/load-agent.js';
import { renderAgent } from '../../llm/render-agent.js';
import type { ChatMessage } from '../../llm/types.js';
import { TOOLS } from '../../tools/registry.js';
import { createToolWorkspace } from '../../tools/tool-workspace.js';
import { codeAgentData } from './code-prompts.js';
import type { CodeSession } from './code-session.js';
import { renderBrief, type FailureBrief } from './failure-brief.js';
import type { RepairSteps } from './repair-loop.js';
import { toolPorts } from './tool-ports.js';
import { whilePreparing } from './while-preparing.js';

/** What one round of the loop did: the paths its edits changed, and why it ended. */
export interface ToolRound {
  paths: string[];
  end: LoopEnd;
}

export interface ToolRoundsOptions {
  /** The worktree the tools read (through the one reader) and its git directory. */
  checkout: { worktree: string; gitDir: string };
  /** Commands that run one test file (`PATH`), for run_tests with files. */
  testRunners: readonly string[];
  /** The run's ranking (paths, most relevant first): every lookup lists these files first. */
  ranked?: readonly string[];
  /** The ranked files after those the code context shows whole: the opening message names them. */
  next?: readonly FileToReadNext[];
  limits?: Partial<LoopLimits>;
}

export function toolRounds(
  session: CodeSession,
  options: ToolRoundsOptions,
): RepairSteps<ToolRound, ValidationRun, FailureBrief> {
  const messages: ChatMessage[] = [];
  const exploration = (session.exploration ??= { steps: [], ends: [] });
  let prepared: Promise<unknown> = Promise.resolve();
  const round = async (n: number, signal?: AbortSignal): Promise<ToolRound> => {
    const paths: string[] = [];
    const workspace = createToolWorkspace(options.checkout, {
      ...toolPorts(session, { paths, prepared: () => prepared, testRunners: options.testRunners }),
      testCommands: session.input.config.validate,
      editFormats: [session.input.config.edit_format],
      ...(options.ranked ? { ranked: options.ranked } : {}),
    });
    const out = await runToolLoop(
      {
        model: session.input.model,
        stage: 'code',
        messages,
        tools: TOOLS,
        ...(options.limits ? { limits: options.limits } : {}),
      },
      {
        llm: session.ports.llm,
        workspace,
        ...(signal ? { signal } : {}),
        onStep: (step) => {
          exploration.steps.push({
            round: n,
            tool: step.tool,
            summary: step.summary,
            error: step.error,
          });
          session.ports.progress?.({ stage: 'code', status: 'info', message: step.summary });
        },
      },
    );
    messages.splice(0, messages.length, ...out.messages);
    exploration.ends.push(LOOP_END_TEXT[out.end]);
    return { paths, end: out.end };
  };
  return {
    ask: async ({ round: n, previous }) => {
      if (previous === undefined) {
        messages.push(...(await firstMessages(session, options.next ?? [])));
        return whilePreparing(session, (signal, ready) => {
          prepared = ready;
          return round(0, signal);
        });
      }
      messages.push({
        role: 'user',
        content: `${renderBrief(previous)}\n\nFix this with the tools (repair ${n} of ${session.input.config.max_repair_attempts}), then call finish.`,
      });
      return round(n, session.ports.signal);
    },
    check: async (answer, n) => {
      if (session.touchedCount() === 0)
        return session.noChange(`the loop ended (${LOOP_END_TEXT[answer.end]}) without an edit`, n);
      return session.validate(answer.paths, n);
    },
  };
}

/** The system and user messages of the explorer agent, from the one-shot agent's data. */
async function firstMessages(
  session: CodeSession,
  next: readonly FileToReadNext[],
): Promise<ChatMessage[]> {
  const { ports, base, input } = session;
  const agent = await loadAgent('code-explorer', {
    ...(ports.agentsDir ? { agentsDir: ports.agentsDir } : {}),
    ...(ports.readOverride ? { readOverride: ports.readOverride } : {}),
  });
  const first = input.plan.file_changes[0];
  const data = {
    ...(first ? codeAgentData(base, first, '') : {}),
    validate_commands:
      input.config.validate.map((c, i) => `${i + 1}. \`${c}\``).join('\n') || '(none)',
    files_next: renderFilesToReadNext(next),
  };
  return renderAgent(agent, data).messages;
}
