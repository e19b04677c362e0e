/** One tool call of a loop, as the account of what the bot did keeps it. */
export interface LoopStep {
  turn: number;
  tool: string;
  /** One line: `read src/a.js:1-80`, `searched \`parse(\`: 3 hits in 2 files`. */
  summary: string;
  error: boolean;
  /** Time the tool took (not the model's). */
  ms: number;
}

/** Why a loop ended. */
export type LoopEnd =
  | 'finish'
  | 'turns'
  | 'calls'
  | 'tool-output'
  | 'tokens'
  | 'time'
  | 'repeat'
  | 'no-tool-calls'
  | 'aborted';

export const LOOP_END_TEXT: Record<LoopEnd, string> = {
  finish: 'the model said the change is complete',
  turns: 'the loop reached its turn limit',
  calls: 'the loop reached its tool-call limit',
  'tool-output': "the tools' answers reached their total size limit",
  tokens: 'the loop reached its token limit',
  time: 'the loop reached its time limit',
  repeat: 'the model kept repeating the same call',
  'no-tool-calls': 'the model stopped calling tools',
  aborted: 'the run was cancelled',
};
