/** What bounds one tool loop: turns, calls, the tools' total output, tokens and wall time. */
export interface LoopLimits {
  /** Model answers (each may hold several calls). */
  maxTurns: number;
  maxCalls: number;
  /** Characters of tool answers sent back, in all. */
  maxToolChars: number;
  /** Prompt + completion tokens of the loop's calls; undefined: only the run's budget. */
  maxTokens?: number;
  /** Wall time of the loop, ms. */
  maxMs: number;
  /** The same call (same tool, same arguments, nothing edited since) answered this often, then the loop ends. */
  maxRepeats: number;
  /** Answers in a row without a tool call before the loop gives up. */
  maxIdleTurns: number;
}

export const DEFAULT_LOOP_LIMITS: LoopLimits = {
  maxTurns: 30,
  maxCalls: 60,
  maxToolChars: 400_000,
  maxMs: 20 * 60_000,
  maxRepeats: 2,
  maxIdleTurns: 2,
};
