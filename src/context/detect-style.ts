/**
 * The repository's formatting conventions from `.editorconfig` and
 * `.prettierrc`, falling back to what the files themselves do. Goes into the code prompts so the
 * LLM writes in the house style.
 */
import { openRepoFiles, type RepoFiles } from '../repo-files/open-repo-files.js';

export interface StyleConfig {
  indent_style: 'space' | 'tab';
  indent_size: number;
  end_of_line: 'lf' | 'crlf';
  insert_final_newline: boolean;
}

/** A style file: small, text, a regular file of the repository's own (a link is not followed). */
async function readText(files: RepoFiles, path: string): Promise<string | undefined> {
  const got = await files.readText(path, { maxBytes: 64 * 1024 });
  return got.ok ? got.text : undefined;
}

/** `[*]` (or the first section) of an .editorconfig. */
function fromEditorconfig(text: string): Partial<StyleConfig> {
  const out: Partial<StyleConfig> = {};
  let inSection = false;
  let seenSection = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/[#;].*$/, '').trim();
    const section = /^\[(.*)\]$/.exec(line);
    if (section) {
      inSection = !seenSection || section[1] === '*';
      seenSection = true;
      continue;
    }
    if (!inSection) continue;
    const [key, value] = line.split('=').map((s) => s.trim().toLowerCase());
    if (key === 'indent_style' && (value === 'space' || value === 'tab')) out.indent_style = value;
    if (key === 'indent_size' && value && /^\d+$/.test(value)) out.indent_size = Number(value);
    if (key === 'end_of_line' && (value === 'lf' || value === 'crlf')) out.end_of_line = value;
    if (key === 'insert_final_newline') out.insert_final_newline = value === 'true';
  }
  return out;
}

function fromPrettierrc(text: string): Partial<StyleConfig> {
  try {
    const json = JSON.parse(text) as { useTabs?: boolean; tabWidth?: number; endOfLine?: string };
    const out: Partial<StyleConfig> = {};
    if (typeof json.useTabs === 'boolean') out.indent_style = json.useTabs ? 'tab' : 'space';
    if (typeof json.tabWidth === 'number') out.indent_size = json.tabWidth;
    if (json.endOfLine === 'lf' || json.endOfLine === 'crlf') out.end_of_line = json.endOfLine;
    return out;
  } catch {
    return {};
  }
}

/** What sample files do when no config says: the commonest indentation and line ending. */
export function inferStyle(samples: readonly string[]): Partial<StyleConfig> {
  let tabs = 0;
  let spaces = 0;
  let crlf = 0;
  let lf = 0;
  const widths = new Map<number, number>();
  for (const text of samples) {
    for (const line of text.split('\n').slice(0, 400)) {
      if (line.startsWith('\t')) tabs++;
      const lead = /^( +)\S/.exec(line)?.[1]?.length;
      if (lead !== undefined) {
        spaces++;
        for (const w of [2, 4, 8]) if (lead % w === 0) widths.set(w, (widths.get(w) ?? 0) + 1);
      }
    }
    crlf += (text.match(/\r\n/g) ?? []).length;
    lf += (text.match(/(?<!\r)\n/g) ?? []).length;
  }
  const out: Partial<StyleConfig> = {};
  if (tabs + spaces > 0) out.indent_style = tabs > spaces ? 'tab' : 'space';
  if (spaces > 0) {
    // The widest width that still explains most indented lines.
    const best = [8, 4, 2].find((w) => (widths.get(w) ?? 0) >= spaces * 0.8);
    out.indent_size = best ?? 2;
  }
  if (crlf + lf > 0) out.end_of_line = crlf > lf ? 'crlf' : 'lf';
  return out;
}

export async function detectStyle(
  repoDir: string,
  samples: readonly string[] = [],
): Promise<StyleConfig> {
  const files = openRepoFiles(repoDir);
  const editorconfig = await readText(files, '.editorconfig');
  const prettierrc =
    (await readText(files, '.prettierrc')) ?? (await readText(files, '.prettierrc.json'));
  return {
    indent_style: 'space',
    indent_size: 2,
    end_of_line: 'lf',
    insert_final_newline: true,
    ...inferStyle(samples),
    ...(prettierrc ? fromPrettierrc(prettierrc) : {}),
    ...(editorconfig ? fromEditorconfig(editorconfig) : {}),
  };
}

export function describeStyle(style: StyleConfig): string {
  const indent = style.indent_style === 'tab' ? 'tabs' : `${style.indent_size} spaces`;
  return `Indent with ${indent}; ${style.end_of_line.toUpperCase()} line endings; ${
    style.insert_final_newline ? 'end files with a newline' : 'no newline at the end of files'
  }. Existing files keep their own line endings and final newline.`;
}
