/**
 * How a merged pull request's merge is seen to be reverted (issue #36), from a webhook's payload
 * alone:
 *
 * - a commit reaching the default branch whose message says git's `This reverts commit <sha>`
 *   (`git revert`, and the commit GitHub's "Revert" button makes) naming the commit the merge put
 *   there (`merge_commit_sha`: the merge commit, the squash commit, or the last rebased commit),
 *   seen in the `push` event. This is what landed, whoever wrote the PR or pushed it;
 * - a merged pull request whose description is GitHub's `Reverts owner/repo#N` line (the "Revert"
 *   button writes it; its title `Revert "<title>"` is often edited, so it is not required). It
 *   catches a revert PR squash-merged under a message without git's line.
 *
 * Both name a PR only through the outcome store (`runs/pr-outcomes.ts`), which knows only the
 * app's own merged PRs: anything else is ignored, and a PR is reverted once whichever sign comes
 * first.
 */

const REVERTS_COMMIT = /\bThis reverts commit ([0-9a-f]{40})\b/gi;

/** The commits that `messages` revert (full shas, lower-case, each once). */
export function revertedCommitsOf(messages: readonly string[]): string[] {
  const shas = messages.flatMap((m) => [...m.matchAll(REVERTS_COMMIT)].map((x) => x[1]!));
  return [...new Set(shas.map((sha) => sha.toLowerCase()))];
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The PR of the same repository that a revert PR's description names (`Reverts owner/repo#N`). */
export function revertedPullOf(body: string | null, repoFullName: string): number | undefined {
  const line = new RegExp(`^Reverts ${escape(repoFullName)}#(\\d+)[ \\t]*$`, 'im');
  const n = Number(line.exec(body ?? '')?.[1]);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
