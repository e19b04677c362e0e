/**
 * Command-scope settings for every git command the bot runs (issue #11). A repository's config
 * is written by whoever can write the mirror: if a sandbox escape plants `core.fsmonitor`, a
 * hook or a driver there, our own git — outside the sandbox — must not run it. Command scope
 * (`GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n`, see run-git.ts) is read after the repository's config,
 * so for single-valued keys our value wins; git 2.39 also honours `safe.directory` there.
 *
 * What cannot be overridden here, because git looks such keys up under names the attacker picks
 * or because every value is a command, is removed by `scrubMirror` before each job (its header
 * says which): `include.path`/`includeIf.*`, `filter.<x>.*`, `diff.<x>.textconv`/`command`,
 * `diff.external`, `merge.<x>.driver`, `trailer.<x>.cmd`, `remote.<x>.uploadpack`/`receivepack`,
 * `url.<x>.insteadOf`, `core.gitProxy` (first match wins, ours would come last). Our own `git
 * diff` calls also pass `--no-ext-diff --no-textconv`, and `GIT_ALLOW_PROTOCOL` (git-env.ts,
 * stronger than any `protocol.*` config) keeps `ext::`, `ssh` and `git://` unreachable.
 */
export const SAFE_GIT_CONFIG: readonly (readonly [key: string, value: string])[] = [
  // The hook planted in issue #11; git runs it on every index refresh (status, add, checkout).
  ['core.fsmonitor', 'false'],
  // No hook of any kind: `--no-verify` only skips pre-commit and commit-msg, while post-checkout,
  // post-commit, reference-transaction and pre-auto-gc would still run. /dev/null/<hook> is
  // never a file, and git says nothing about a missing hook.
  ['core.hooksPath', '/dev/null'],
  // ":" is git's own "no editor": nothing is started if a command ever wants one.
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  // Our output is a pipe, so no pager starts anyway; `cat` if one ever did.
  ['core.pager', 'cat'],
  // GIT_ASKPASS (git-env.ts) already wins over these; kept so neither can name a program.
  ['core.askPass', 'true'],
  ['core.sshCommand', 'false'],
  // Only consulted when the mirror has alternates (we never create any).
  ['core.alternateRefsCommand', 'true'],
  // An empty value resets the helper list, including `credential.<url>.helper` entries read
  // before it: nothing stores or supplies credentials but the per-command token.
  ['credential.helper', ''],
  // Signing and signature checks run `gpg.program` (or `gpg.ssh.program`).
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['push.gpgSign', 'false'],
  ['log.showSignature', 'false'],
  ['gpg.program', 'false'],
  ['gpg.openpgp.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['gpg.ssh.program', 'false'],
  // Recursing into a submodule would run git with that submodule's own config.
  ['submodule.recurse', 'false'],
  // Job worktrees are chowned to the sandbox's unprivileged uid when the worker is root: our git
  // must accept them ("dubious ownership"), and the new owner and ctime must not make every file
  // look modified (a full re-hash of the tree).
  ['safe.directory', '*'],
  ['core.checkStat', 'minimal'],
  ['core.trustctime', 'false'],
  // A commit in a job's worktree would start `git maintenance run --auto` (a process) each time:
  // the mirror is kept by its own `gc --auto` after fetches (mirror.ts).
  ['maintenance.auto', 'false'],
];
