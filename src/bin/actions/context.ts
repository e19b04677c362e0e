import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { explainContext, formatContextReport } from '../../context/explain-context.js';
import { EXIT } from '../exit-codes.js';

export interface ContextOptions {
  repo: string;
  issueFile: string;
  json?: boolean;
  budget: number;
  top: number;
  show?: boolean;
}

export async function context(options: ContextOptions): Promise<void> {
  const repo = resolve(options.repo);
  if (
    !(await stat(repo).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    console.error(`autofix context: --repo ${options.repo} is not a directory`);
    process.exitCode = EXIT.USAGE;
    return;
  }
  let issue: string;
  try {
    issue = await readFile(options.issueFile, 'utf8');
  } catch (err) {
    console.error(`autofix context: cannot read --issue-file: ${(err as Error).message}`);
    process.exitCode = EXIT.USAGE;
    return;
  }
  const report = await explainContext(repo, issue, {
    budget: options.budget,
    top: options.top,
  });
  if (options.json) {
    const { context, ...rest } = report;
    const extra = options.show
      ? { outline_text: context.outline.text, code_text: context.code.text }
      : {};
    console.log(JSON.stringify({ ...rest, ...extra }, null, 2));
    return;
  }
  console.log(formatContextReport(report));
  if (options.show)
    console.log(
      `\n## Repository map\n\n${report.context.outline.text}\n\n## Code\n\n${report.context.code.text}`,
    );
}
