/**
 * The description part of a commit subject (`type(scope): description`) as text: normalised from
 * whatever a model or a person wrote, and fitted to a length budget. Pure; the choice of *which*
 * text becomes the description is `src/pipeline/commit-subject.ts`.
 *
 * `normaliseDescription`, in order:
 *   1. whitespace (newlines too) collapsed to single spaces;
 *   2. a leading `[tag]`, a Conventional Commit prefix (`fix(scope)!: `, any common type) and a
 *      "this commit/change/PR …" opening removed;
 *   3. a trailing period, `!`, `;`, `:`, `,` or ellipsis removed;
 *   4. the imperative repair: a first word that is an inflected form of a verb in `VERBS`
 *      ("Fixes", "Fixed", "Fixing", "Added", "Makes", "Returning", "Set"…) becomes its base form
 *      in lower case ("fix", "add", "make", "return", "set"). Only this small, fixed list: a word
 *      not in it is left as written, never guessed at;
 *   5. the first letter lower-cased only when the first word is a plain capitalised English word
 *      (`Return` → `return`); an identifier such as `Set-Cookie`, `URLSearchParams`, `README`,
 *      `I18n` or `parse()` keeps its spelling.
 *
 * `fitDescription` cuts at a word boundary (never a trailing ellipsis), preferring the start of
 * the clause it would cut into ("… from parseConfig| when the file is empty") when that keeps 60%
 * of the budget, drops a dangling connective ("and", "the", "to"…) or punctuation left at the cut
 * and an unclosed `` ` `` or `(`, and only cuts inside a word when a single word is longer than
 * the budget.
 */

/** Base forms the imperative repair knows, with their irregular forms where they have some. */
const VERBS: Record<string, readonly string[]> = {
  add: [],
  allow: [],
  avoid: [],
  change: [],
  check: [],
  clean: [],
  correct: [],
  document: [],
  drop: ['drops', 'dropped', 'dropping'],
  ensure: [],
  escape: [],
  fix: ['fixes'],
  handle: [],
  ignore: [],
  implement: [],
  improve: [],
  keep: ['kept'],
  make: ['made'],
  move: [],
  parse: [],
  prevent: [],
  remove: [],
  rename: [],
  replace: [],
  resolve: [],
  restore: [],
  return: [],
  set: ['sets', 'setting'],
  show: ['shown'],
  skip: ['skips', 'skipped', 'skipping'],
  sort: [],
  stop: ['stops', 'stopped', 'stopping'],
  support: [],
  update: [],
  use: [],
  validate: [],
};

/** Regular inflections: `adds`/`added`/`adding`, `makes`/`maked`(harmless)/`making`. */
function regularForms(verb: string): string[] {
  const stem = verb.endsWith('e') ? verb.slice(0, -1) : verb;
  return [`${verb}s`, `${stem}ed`, `${stem}ing`];
}

const BASE_FORM: ReadonlyMap<string, string> = new Map(
  Object.entries(VERBS).flatMap(([verb, irregular]) =>
    [verb, ...regularForms(verb), ...irregular].map((form) => [form, verb] as const),
  ),
);

const CONVENTIONAL_PREFIX =
  /^(?:fix|feat|docs|chore|refactor|perf|test|tests|build|ci|style|revert)(?:\([^)]*\))?!?:\s*/i;
const THIS_CHANGE = /^this (?:commit|change|patch|pr|pull request|fix)\s+/i;
const CONNECTIVE =
  /[\s,;:.…(\-–—]+$|\s+(?:and|or|but|the|a|an|to|of|in|on|at|by|for|with|via|using|from|into|after|before|than|when|if|because|that|so|as|not|be|is|are|was)$/i;
const CLAUSE_WORD =
  /^(?:and|or|but|when|if|so|because|while|which|unless|since|before|after|instead)$/i;
const CLAUSE_START =
  /[,;](?=\s)|\s(?=(?:and|or|but|when|if|so|because|while|which|unless|since|before|after|instead)\s)/gi;
const MIN_LENGTH = 10;

/** The whitespace, prefix, punctuation, tense and casing repairs (module comment, 1–5). */
export function normaliseDescription(text: string): string {
  let out = text.replace(/\s+/g, ' ').trim();
  for (let previous = ''; previous !== out;) {
    previous = out;
    out = out
      .replace(/^\[[^\]]*\]\s*/, '')
      .replace(CONVENTIONAL_PREFIX, '')
      .replace(THIS_CHANGE, '')
      .trim();
  }
  out = out.replace(/(?:[.!;:,\s]|…)+$/, '');
  // A plain word only: `FIX`, `Set-Cookie` or `parse()` are not touched.
  const word = /^[A-Za-z][a-z]*(?=[\s,;:]|$)/.exec(out)?.[0];
  if (!word) return out;
  const base = BASE_FORM.get(word.toLowerCase());
  if (base) return base + out.slice(word.length);
  if (/^[A-Z][a-z]+$/.test(word)) return word[0]!.toLowerCase() + out.slice(1);
  return out;
}

/** Drops a dangling connective or punctuation at the end, as long as `min` characters remain. */
function trimDangling(text: string, min: number): string {
  let out = text;
  for (;;) {
    const next = out.replace(CONNECTIVE, '');
    if (next === out || next.length < min) return out;
    out = next;
  }
}

/** Where an unclosed `` ` `` or `(` starts, or -1. */
function unclosedAt(text: string): number {
  const ticks = [...text.matchAll(/`/g)].map((m) => m.index);
  if (ticks.length % 2 === 1) return ticks.at(-1)!;
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') open.push(i);
    else if (text[i] === ')') open.pop();
  }
  return open.at(-1) ?? -1;
}

/**
 * `text` in at most `max` characters (UTF-16 units, as the commit rule counts): cut at the last
 * word boundary that fits, never with an ellipsis. Text already short enough is returned as is.
 */
export function fitDescription(text: string, max: number): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(' ', max);
  let out: string;
  if (space >= Math.min(MIN_LENGTH, max)) {
    out = text.slice(0, space);
    // The cut is inside a clause ("… when the file| is empty"): end at the clause's start
    // instead, when that keeps at least 60% of the budget.
    const next = /^\S+/.exec(text.slice(space + 1))?.[0] ?? '';
    if (!CLAUSE_WORD.test(next)) {
      const starts = [...out.matchAll(CLAUSE_START)].map((m) => m.index);
      const start = starts.at(-1);
      if (start !== undefined && start >= Math.ceil(max * 0.6)) out = out.slice(0, start);
    }
  } else {
    // One word longer than the budget: cut inside it, but not between a surrogate pair.
    const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
    out = text.slice(0, end);
  }
  out = trimDangling(out.trimEnd(), MIN_LENGTH);
  // Cut before an unclosed `` ` `` or `(`; when that leaves too little, drop the character alone.
  for (let at = unclosedAt(out); at >= 0; at = unclosedAt(out)) {
    const before = trimDangling(out.slice(0, at).trimEnd(), MIN_LENGTH);
    out = before.length >= MIN_LENGTH ? before : out.slice(0, at) + out.slice(at + 1);
  }
  return out;
}
