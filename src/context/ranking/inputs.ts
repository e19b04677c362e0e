/**
 * What every source of evidence reads, made once per ranking: the issue as the reporter wrote
 * it and what it names, each file's kind, the program files, the files that hold each name
 * looked up, and the project's own package.
 */
import type { RepoFile, RepoMap } from '../build-repo-map.js';
import { classifyPath, repoLayout, type PathKind } from '../classify-path.js';
import { createNameIndex, type NameIndex } from '../code-graph.js';
import { extractIssueRefs, titleTags, type IssueRefs } from '../extract-issue-refs.js';
import { filesHolding } from '../grep-code.js';
import { readIssue } from '../issue-template.js';
import { termQuery, type TermQuery } from '../split-words.js';
import { locatedNames, namesToLocate } from './names-to-locate.js';
import { projectPackages } from './project-packages.js';
import type { RankOptions } from './types.js';

export interface RankInputs {
  readonly map: RepoMap;
  /** What the reporter wrote: the repository's issue template and the environment left out. */
  readonly issueText: string;
  readonly refs: IssueRefs;
  readonly query: TermQuery;
  readonly paths: readonly string[];
  /** Each file of the map with its kind (`classifyPath`), in the map's order. */
  readonly classified: readonly { file: RepoFile; kind: PathKind }[];
  /** Each file's kind, by path. */
  readonly kinds: ReadonlyMap<string, PathKind>;
  /** Program files (source, test, config, example): docs and build output never define names. */
  readonly code: readonly RepoFile[];
  isSource: (file: { path: string }) => boolean;
  /** How many of the hits are source files, at least 1: what one piece of evidence is shared by. */
  sourceCount: (hits: readonly { path: string }[]) => number;
  /** The program files that hold a name of `locatedNames` (one scan for all of them). */
  holders: (name: string) => readonly RepoFile[];
  /** The names looked up in the code (`namesToLocate`). */
  readonly located: ReturnType<typeof namesToLocate>;
  /**
   * The project's own package (`astroid/`, `src/sqlfluff/`, `fastapi/`), named in every issue:
   * neither its folder nor a class of its name (`class FastAPI`) is evidence.
   */
  readonly projectDirs: ReadonlySet<string>;
  /** The index of file and folder names, made on first use. */
  nameIndex: () => NameIndex;
  /** The parts the title's tags name (`[Globo] …`). */
  readonly tags: readonly string[];
  readonly titleNames: ReadonlySet<string>;
  /** Names only the issue's code blocks hold (a reproducer's setup). */
  readonly codeOnly: ReadonlySet<string>;
  /** `__init__.py` files that hold nothing but comments: no folder's entry, nothing to fix. */
  readonly emptyInits: ReadonlySet<string>;
  readonly options: RankOptions;
}

export function rankInputs(map: RepoMap, text: string, options: RankOptions): RankInputs {
  // The repository's issue template is the same in every issue, and the environment (versions,
  // paths of an installation) is no evidence.
  const issueText = readIssue(text, map.files);
  const refs = extractIssueRefs(issueText);
  const paths = map.files.map((f) => f.path);
  const layout = repoLayout(paths);
  const classified = map.files.map((file) => ({ file, kind: classifyPath(file.path, layout) }));
  const kinds = new Map(classified.map(({ file, kind }) => [file.path, kind]));
  const code = map.files.filter((f) => {
    const kind = kinds.get(f.path);
    return kind === 'source' || kind === 'test' || kind === 'config' || kind === 'example';
  });
  const isSource = (f: { path: string }): boolean => kinds.get(f.path) === 'source';
  const holding = filesHolding(code, locatedNames(refs), options.held);
  let names: NameIndex | undefined;
  return {
    map,
    issueText,
    refs,
    query: termQuery(issueText),
    paths,
    classified,
    kinds,
    code,
    isSource,
    sourceCount: (hits) => Math.max(1, hits.filter(isSource).length),
    holders: (name) => holding.get(name) ?? [],
    located: namesToLocate(refs),
    projectDirs: projectPackages(classified.map(({ file, kind }) => ({ path: file.path, kind }))),
    nameIndex: () => (names ??= createNameIndex(paths)),
    tags: titleTags(issueText),
    titleNames: new Set(refs.titleNames),
    codeOnly: new Set(refs.codeOnlyNames),
    emptyInits: new Set(
      map.files
        .filter(
          (f) => f.path.endsWith('__init__.py') && f.content.replace(/#.*$/gm, '').trim() === '',
        )
        .map((f) => f.path),
    ),
    options,
  };
}
