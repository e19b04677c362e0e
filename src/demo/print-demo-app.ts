/**
 * What `autofix demo --app` prints: the set-up, each version of the status comment as the app
 * edits it, and the pull request it opened with the pushed commit.
 */
import type { FakeComment, FakeGitHub, FakePull } from '../../fakes/github/index.js';
import { runGit } from '../git/run-git.js';
import { shellQuote } from './demo-setup.js';

export type Say = (text?: string) => void;

/** A status comment as plain text: its hidden markers out, the markdown as it is. */
function plain(body: string): string {
  return body
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?(details|summary|sub|sup|b|i|code)>/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const indent = (text: string): string =>
  text
    .split('\n')
    .map((l) => (l ? `  │ ${l}` : '  │'))
    .join('\n');

const FINAL_HEADLINE = /^### (🚀|⏹|❌) /m;

/**
 * Prints each comment version not shown yet (and keeps it in `edits`); gives the comment whose
 * headline says the run ended, once there is one.
 */
export function statusPrinter(
  say: Say,
  github: FakeGitHub,
  started: number,
  edits: string[],
): () => FakeComment | undefined {
  const shown = new Map<number, number>();
  return () => {
    let final: FakeComment | undefined;
    for (const c of github.comments.values()) {
      for (let i = shown.get(c.id) ?? 0; i < c.history.length; i++) {
        const body = c.history[i]!;
        edits.push(body);
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        say();
        say(
          `── comment on issue #${c.issueNumber} by ${github.botLogin}, ${i === 0 ? 'posted' : `edit ${i}`} (${seconds} s) ──`,
        );
        say(indent(plain(body)));
      }
      shown.set(c.id, c.history.length);
      if (FINAL_HEADLINE.test(c.body)) final = c;
    }
    return final;
  };
}

/** The pull request: title, branch, the body above its folded details, the pushed commit. */
export async function printPull(
  say: Say,
  pull: FakePull,
  github: FakeGitHub,
  where: { bare: string; root: string },
): Promise<void> {
  const diff = await runGit(['--git-dir', where.bare, 'show', '--format=medium', pull.head], {
    cwd: where.root,
  });
  say(
    `── pull request #${pull.number} opened by ${github.botLogin}${pull.draft ? ' (draft)' : ''} ──`,
  );
  say(`  title   ${pull.title}`);
  say(`  branch  ${pull.head} → ${pull.base}`);
  // The folded <details> (diff, full validation output) is shown below as the commit.
  const cut = pull.body.indexOf('<details>');
  say('  body:');
  say(indent(cut < 0 ? pull.body.trim() : pull.body.slice(0, cut).trim()));
  if (cut >= 0)
    say('  │ ▸ Details (folded on GitHub): branch, commit, diff, full validation output');
  say(`  the pushed commit (git --git-dir ${shellQuote(where.bare)} show ${pull.head}):`);
  say(indent(diff.stdout.trimEnd()));
}
