import { commentText } from './comment-text.js';

/**
 * Is this line a placeholder a "lazy" model writes instead of code it does not repeat
 * (`# ... existing code ...`, `// rest of the function unchanged`, `/* … *\/`, a bare `...`)?
 * Only the line's shape is judged here; whether it really stands for lost code depends on what
 * the hunk removes (`elided-code.ts`). A comment is a placeholder when it is nothing but an
 * ellipsis, an ellipsis at its start or end around a few words of the placeholder vocabulary
 * (`... existing imports ...`, `TODO: ...`), or such words alone around a phrase that only
 * placeholders use (`existing code`, `unchanged`, `rest of`, `remains the same`). A comment that
 * says something of its own (`# see ... for details`, `# Use the existing connection`) is not.
 */
const ELLIPSIS = /\.{2,}|…/;
const BARE = /^(?:\.{3,}|…)[;,]?$/;
const PHRASE =
  /\b(?:existing|unchanged|rest|remains?|remaining|stays?|as before|same as|as is|omitted|brevity|no changes?|unmodified|untouched|elided|snip(?:ped)?)\b/;

const VOCABULARY = new Set(
  (
    'a an the of to in on for and or with from here there this that these those it its is are be ' +
    'was were as same before above below after rest existing code unchanged remains remain ' +
    'remaining stays stay kept keep keeps untouched unmodified omitted elided skipped snip snipped ' +
    'brevity no not changes change changed other others more previous previously original all ' +
    'everything else remainder etc todo fixme xxx function functions method methods class classes ' +
    'file files module body implementation implementations logic line lines content contents ' +
    'import imports field fields property properties attribute attributes case cases test tests ' +
    'definition definitions helper helpers handler handlers block blocks statement statements ' +
    'loop loops branch branches config configuration setup constructor init member members props ' +
    'state shown hidden goes go part parts section sections declarations exports routes rules ' +
    'options settings values entries items stuff things unchanged untouched like similar ' +
    'following preceding earlier later code.'
  ).split(/\s+/),
);

const wordsOf = (text: string): string[] =>
  (text.toLowerCase().match(/[a-z0-9_']+/g) ?? []).filter((w) => !/^\d+$/.test(w));

export function isElisionMarker(line: string): boolean {
  const trimmed = line.trim();
  if (BARE.test(trimmed)) return true;
  const body = commentText(line);
  if (body === undefined) return false;
  const words = wordsOf(body);
  const unknown = words.filter((w) => !VOCABULARY.has(w)).length;
  const stripped = body.replace(/^[\s([{<]+|[\s)\]}>:;,]+$/g, '');
  if (ELLIPSIS.test(body)) {
    if (words.length === 0) return true;
    const starts = /^(?:\.{2,}|…)/.test(stripped);
    const ends = /(?:\.{2,}|…)$/.test(stripped);
    // `... handle errors ...`: an ellipsis on both sides is a placeholder whatever it names.
    if (starts && ends) return words.length <= 8 && unknown <= 3;
    return (starts || ends) && words.length <= 8 && unknown <= 1;
  }
  return PHRASE.test(body.toLowerCase()) && words.length <= 10 && unknown <= 1;
}
