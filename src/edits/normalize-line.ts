/**
 * Precomputed views of one line for tolerant comparison. Computing them once per file line keeps
 * the hunk search (every position × every hunk line) down to string equality checks.
 */
export interface NormLine {
  /** The line without a carriage return. */
  text: string;
  /** Without trailing whitespace: diffs often lose it in transit or in the LLM's copy. */
  trimEnd: string;
  /** `trimEnd` without its indentation. */
  body: string;
  /** Indentation width in columns at tab widths 2, 4 and 8 (tabs vs spaces drift). */
  cols: [number, number, number];
  /** All whitespace runs collapsed to one space, trimmed. */
  collapsed: string;
  /** Blank or punctuation only (`}`, `);`): such a line alone is no evidence of a position. */
  trivial: boolean;
}

const TAB_WIDTHS = [2, 4, 8] as const;

/** The column an indentation reaches with tabs `width` wide. */
export function indentColumns(indent: string, width: number): number {
  let col = 0;
  for (const ch of indent) col = ch === '\t' ? col + width - (col % width) : col + 1;
  return col;
}

export function normalizeLine(raw: string): NormLine {
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const trimEnd = text.trimEnd();
  const body = trimEnd.trimStart();
  const indent = trimEnd.slice(0, trimEnd.length - body.length);
  const collapsed = body.replace(/\s+/g, ' ');
  return {
    text,
    trimEnd,
    body,
    cols: [
      indentColumns(indent, TAB_WIDTHS[0]),
      indentColumns(indent, TAB_WIDTHS[1]),
      indentColumns(indent, TAB_WIDTHS[2]),
    ],
    collapsed,
    trivial: !/[\p{L}\p{N}]/u.test(collapsed),
  };
}
