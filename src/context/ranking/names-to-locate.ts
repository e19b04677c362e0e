/**
 * The names the ranking looks up in the code: the symbols the issue names, its `Class.method`
 * pairs, names without their version number, and the names of the data files it names.
 */
import { isSymbolName, type IssueRefs } from '../extract-issue-refs.js';
import { basename, isDataFile, isForeignPath } from './path-shapes.js';
import { LIMITS } from './weights.js';

/** Receivers and globals: `self.fail` names `fail`, not a definition of `self`. */
const RECEIVERS = new Set(
  'self this cls super window document console module exports process require global globalThis'.split(
    ' ',
  ),
);

/**
 * An exception type (`FieldError`, `pkg.errors.InvalidDicomError`): the module that defines it
 * is seldom where it is raised or fixed; its definition counts for less and its module path
 * for nothing (the traceback, the message and the names around say where it was raised).
 */
export const isExceptionType = (name: string): boolean => /(Error|Exception|Warning)$/.test(name);

/**
 * The names the ranking looks up in the code: the symbols the issue names (`Class.method`
 * counts both parts; receivers like `self` are not names), and its `Class.method` pairs.
 */
export function namesToLocate(refs: IssueRefs): {
  named: string[];
  classMembers: { cls: string; member: string }[];
  /** Names without their version number (`unversioned`), looked up when the named one is not. */
  unversioned: string[];
} {
  const symbols = new Set(refs.identifiers);
  for (const d of refs.dotted)
    for (const part of d.split('.')) if (part.length >= 3 && isSymbolName(part)) symbols.add(part);
  for (const r of RECEIVERS) symbols.delete(r);
  const classMembers = refs.dotted.flatMap((d) => {
    const parts = d.split('.');
    return parts.slice(0, -1).flatMap((cls, i) => {
      const member = parts[i + 1] ?? '';
      return /^[A-Z]\w*$/.test(cls) && /^\w{3,}$/.test(member) && !RECEIVERS.has(cls)
        ? [{ cls, member }]
        : [];
    });
  });
  // At most 60 names (a pasted log names hundreds): the title's first.
  const inTitle = new Set(refs.titleNames);
  const named = [
    ...[...symbols].filter((n) => inTitle.has(n)),
    ...[...symbols].filter((n) => !inTitle.has(n)),
  ].slice(0, LIMITS.names);
  return { named, classMembers, unversioned: named.flatMap((n) => unversioned(n) ?? []) };
}

/**
 * `PersonName3` → `PersonName`: a name with a version number at its end, which an old issue
 * may use after the code dropped it (Python 2/3 pairs, `V2` classes renamed when the old one
 * went).
 */
export function unversioned(name: string): string | undefined {
  const m = /^([A-Za-z_]\w*?[A-Za-z_])[vV]?\d{1,2}$/.exec(name);
  return m?.[1] !== undefined && m[1].length >= 4 ? m[1] : undefined;
}

/** Every name of `namesToLocate`, for `namesIn`/`filesHolding`. */
export function locatedNames(refs: IssueRefs): string[] {
  const { named, classMembers, unversioned: bases } = namesToLocate(refs);
  return [
    ...named,
    ...classMembers.flatMap((c) => [c.cls, c.member]),
    ...bases,
    ...dataFileNames(refs),
  ];
}

/**
 * The names of the data files the prose names (`results.png`, not `/etc/x.cfg` nor a frame):
 * where one is not in the repository, the source files holding its name are looked for.
 */
const dataFileNames = (refs: IssueRefs): string[] =>
  [
    ...new Set(
      refs.paths
        .filter((m) => !m.trace && !isForeignPath(m.path) && isDataFile(m.path))
        .map((m) => basename(m.path)),
    ),
  ].slice(0, 2 * LIMITS.missingFiles);
