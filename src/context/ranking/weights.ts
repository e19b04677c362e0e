/**
 * The ranking's numbers in one place: the points each kind of evidence gives (`WEIGHTS`) and the
 * limits past which evidence says nothing (`LIMITS`). The demotion of tests, docs and the like is
 * `DEMOTION`/`ABOUT_FACTOR` in `classify-path.ts`.
 */

export const WEIGHTS = {
  namedPath: 100,
  /** The innermost frame of a stack trace that is in the repository (where the error was raised). */
  tracePath: 100,
  /** Any other frame in the repository (a caller). */
  traceCaller: 60,
  namedBasename: 40,
  dottedModule: 40,
  namedDirectory: 8,
  definesIdentifier: 30,
  /** A name nothing defines, used as a key, an instance attribute or a parameter. */
  usesName: 15,
  /** Factor for the definition of an exception type the issue names. */
  exceptionType: 0.5,
  /** Factor for the definition of `Name` when the issue's `Name3` is defined nowhere. */
  unversioned: 0.5,
  /** The file whose class `Class` defines the `method` of a dotted `Class.method`. */
  definesMember: 30,
  raisesMessage: 30,
  /** Factor for a quoted message found only in part (four of its words in a row). */
  partialMessage: 0.5,
  declaresOption: 25,
  /** The modules that read a setting the issue names (`settings.FOO`, `config.foo`). */
  readsSetting: 20,
  pathMatchesName: 25,
  /** Factor for the definition of a symbol the title names (the reporter put it first). */
  titleName: 1.5,
  /** Factor (of `namedBasename`) for the source files that hold a missing file's name. */
  literalName: 0.5,
  /** Factor for a module or a part's name (file or folder) the title names, when it is one part. */
  titlePart: 2,
  /** Factor for a symbol only the code blocks hold (a reproducer's setup). */
  codeOnly: 0.6,
  /** Factor for a plain title word that is a file or folder name (not a code-shaped name). */
  titleWord: 0.5,
  /** The file that defines a name the issue imports (`from pkg import Name`) or dots into. */
  importedName: 35,
  /** Factor (of `importedName`) for a submodule imported (`from pkg import fields`): a place to look. */
  importedModule: 0.5,
  /**
   * BM25 scores are scaled so that the best file gets this many points. The content's share was
   * chosen on the localization bench by `bench:context-weights` (leave one repository out): the
   * best overlap outweighs a definition or a path that matches a name, never a named file or frame.
   */
  bm25Path: 10,
  bm25Content: 60,
  /** Share of a top source file's score its imports and importers receive (one hop). */
  importHop: 0.15,
  /**
   * Share of the best source file's score the file most often changed with the best files gets
   * (the others in proportion): enough to order the files after the first few, not to outweigh
   * the issue's own evidence (chosen on the localization bench).
   */
  coChange: 0.15,
} as const;

export const LIMITS = {
  /** Evidence that names more files than this says nothing about any of them. */
  maxHits: 12,
  /** The best source files whose imports and importers get the hop. */
  hopSources: 5,
  /** Missing files whose names are looked for (a pasted log names hundreds). */
  missingFiles: 8,
  /** A file's name held as a literal by more source files than this is a common name. */
  literalHolders: 4,
  /** Files sharing a file name the issue names: up to this many, each counts as named. */
  namedBasenames: 3,
  /** Classes defining the `member` of a `Class.member`: more than this tells nothing. */
  memberOwners: 3,
  /** Names looked up in the code (a pasted log names hundreds): the title's first. */
  names: 60,
  /** A commit that changed more files than this (a rename, a formatting pass) is no co-change. */
  coChangeFiles: 30,
} as const;
