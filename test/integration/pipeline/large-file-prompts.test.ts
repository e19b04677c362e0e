/**
 * A large planned file reaches the code agent and the fixer as regions (file-view.ts): the real
 * prompts stay small, show the planned lines verbatim with the cut notes, and an edit written
 * against the regions applies to the whole file through the real edit engine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EditFormat } from '../../../src/config/repo-config.js';
import type { FixPlan } from '../../../src/contracts.js';
import { applyEdits } from '../../../src/edits/index.js';
import { checkIgnore } from '../../../src/git/check-ignore.js';
import { loadAgent, loadEditFormatInstructions } from '../../../src/llm/load-agent.js';
import { renderAgent, type RenderedPrompt } from '../../../src/llm/render-agent.js';
import {
  codeAgentData,
  codeFixerData,
  type PromptBase,
} from '../../../src/pipeline/code/code-prompts.js';
import { changelog, readView, shownLines } from '../../helpers/large-file.js';
import { makeRepo, removeTempDirs } from '../edits/temp-repo.js';

afterEach(removeTempDirs);

const PATH = 'CHANGELOG.md';
const content = changelog(120_000);
const lines = content.replace(/\n$/, '').split('\n');
const target = lines.findIndex((l) => l.includes('widget option 700 ')) + 1;
const wrong = lines[target - 1] ?? '';
const right = wrong.replace('when its input is empty', 'when its input is null');

const plan = {
  branch_name: 'fix/7-changelog',
  commit_type: 'docs',
  scope: 'changelog',
  plan_steps: [{ id: '1', description: 'Correct the changelog entry of widget option 700.' }],
  file_changes: [{ path: PATH, operation: 'MODIFY', line_range: [target, target] }],
  validation_commands: [],
} as FixPlan;

async function baseFor(editFormat: EditFormat): Promise<PromptBase> {
  return {
    issue: {
      repository: 'acme/widgets',
      number: 7,
      title: 'Changelog entry of option 700 is wrong',
      body: 'It says "empty"; the fix was for a null input.',
    },
    plan,
    style: { indent_style: 'space', indent_size: 2, end_of_line: 'lf', insert_final_newline: true },
    codeContext: '(none)',
    editFormatInstructions: await loadEditFormatInstructions(editFormat),
    editFormat,
  };
}

const bytes = (prompt: RenderedPrompt): number =>
  prompt.messages.reduce((sum, m) => sum + Buffer.byteLength(m.content), 0);

/** The view inside the user message's fence after `marker`. */
function viewIn(prompt: RenderedPrompt, marker: string): string {
  const user = prompt.messages[1]?.content ?? '';
  const match = /\n(`{3,})\n([\s\S]*?)\n\1\n/.exec(user.slice(user.indexOf(marker)));
  return `${match?.[2] ?? ''}\n`;
}

async function codePrompt(format: EditFormat): Promise<RenderedPrompt> {
  const data = codeAgentData(await baseFor(format), plan.file_changes[0]!, content);
  return renderAgent(await loadAgent('code-agent'), data);
}

describe('a 120 KB changelog in the plan', () => {
  it('reaches the code agent as the planned region with the cut notes, in a small prompt', async () => {
    expect(Buffer.byteLength(content)).toBeGreaterThan(115_000);
    const prompt = await codePrompt('udiff');
    expect(bytes(prompt)).toBeLessThan(30_000);
    const user = prompt.messages[1]?.content ?? '';
    expect(user).toContain(`\n${lines.slice(target - 4, target + 3).join('\n')}\n`);
    expect(user).toMatch(
      /\n⋯ \d+ lines \(117 KB\), too large to show whole: only lines 1-\d+, \d+-\d+ are shown ⋯\n/,
    );
    expect(user).toMatch(new RegExp(`\\n⋯ lines \\d+-${lines.length} not shown ⋯\\n`));
    readView(viewIn(prompt, 'Current content:'), content);
  });

  it('reaches the fixer as the lines changed so far, in a small prompt', async () => {
    const latest = content.replace(wrong, right);
    const data = codeFixerData(await baseFor('udiff'), {
      attempt: 1,
      maxAttempts: 2,
      brief: {
        stage: 'validate',
        code: 'VALIDATION_FAILED',
        command: 'npx markdownlint CHANGELOG.md',
        exit_code: 1,
        excerpt: `CHANGELOG.md:${target + 1} MD004/ul-style`,
      },
      changed: [{ path: PATH, content: latest }],
      debugNotes: [],
      allowAmendments: false,
      originals: new Map([[PATH, content]]),
    });
    const prompt = renderAgent(await loadAgent('code-fixer'), data);
    expect(bytes(prompt)).toBeLessThan(30_000);
    expect(prompt.messages[1]?.content).toContain(`\n${right}\n`);
    expect(readView(viewIn(prompt, `--- FILE REPLACEMENT ${PATH} ---`), latest)).toEqual(
      expect.arrayContaining([target, target + 1]),
    );
  });

  it('takes a unified diff written against the shown region, applied to the whole file', async () => {
    const shown = shownLines(viewIn(await codePrompt('udiff'), 'Current content:'));
    const at = shown.findIndex((s) => s.line === target);
    const before = shown.slice(at - 3, at).map((s) => ` ${s.text}`);
    const after = shown.slice(at + 1, at + 4).map((s) => ` ${s.text}`);
    const start = shown[at - 3]?.line ?? 0;
    const diff = [
      `--- a/${PATH}`,
      `+++ b/${PATH}`,
      `@@ -${start},7 +${start},7 @@`,
      ...before,
      `-${wrong}`,
      `+${right}`,
      ...after,
      '',
    ].join('\n');
    const repoDir = makeRepo({ [PATH]: content });
    const result = await applyEdits({
      repoDir,
      format: 'udiff',
      text: diff,
      isIgnored: (p) => checkIgnore(repoDir, p),
    });
    expect(result.applied).toBe(true);
    expect(readFileSync(join(repoDir, PATH), 'utf8')).toBe(content.replace(wrong, right));
  });

  it('takes edit operations by quoted target and by the line number the markers give', async () => {
    const shown = shownLines(viewIn(await codePrompt('edit-ops'), 'Current content:'));
    const line = shown.find((s) => s.line === target + 1);
    const answer = JSON.stringify({
      summary: 'Correct the entry of option 700.',
      operations: [
        {
          file_path: PATH,
          operation: 'edit',
          edit_type: 'replace',
          target: `${wrong}\n`,
          content: `${right}\n`,
        },
        {
          file_path: PATH,
          operation: 'edit',
          edit_type: 'replace_line',
          line_number: line?.line,
          content: `${line?.text} (see #700)\n`,
        },
      ],
    });
    const repoDir = makeRepo({ [PATH]: content });
    await applyEdits({
      repoDir,
      format: 'edit-ops',
      text: answer,
      isIgnored: (p) => checkIgnore(repoDir, p),
    });
    const expected = [...lines];
    expected[target - 1] = right;
    expected[target] = `${lines[target] ?? ''} (see #700)`;
    expect(readFileSync(join(repoDir, PATH), 'utf8')).toBe(`${expected.join('\n')}\n`);
  });

  it('reaches whole-file formats whole (their answer rewrites every line)', async () => {
    const prompt = await codePrompt('fenced-files');
    expect(prompt.messages[1]?.content).toContain(content);
  });
});
