/** How much one tool call may show the model. The loop caps calls and total output per run. */
export interface ToolLimits {
  /** `read_file`: lines per call. */
  readLines: number;
  /** Characters of any one answer. */
  answerChars: number;
  /** `search`, `find_references`: hits per call. */
  hits: number;
  /** `search`: hits shown per file, so that one busy file does not hide the others. */
  hitsPerFile: number;
  /** `list_files`: entries per call. */
  entries: number;
  /** A line shown in a hit is cut to this. */
  lineChars: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  readLines: 400,
  answerChars: 24_000,
  hits: 60,
  hitsPerFile: 5,
  entries: 400,
  lineChars: 240,
};
