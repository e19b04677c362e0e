/**
 * Repository map and ranking in a worker thread, so that a one-shot process (`autofix context`)
 * can load the tokenizer on the main thread at the same time. The calling thread lists the files
 * while the worker boots, then each thread reads its share (`loadFilesSync`), counts the issue's
 * terms in it, finds the names the ranking looks up and what each file imports: that per-file
 * work is most of the work, and the calling thread has nothing else to do. The map comes back
 * with contents only for the best-ranked files (`withoutUnrankedContents`).
 * Only from compiled JavaScript (a `.ts` module cannot be a worker under jest); otherwise, and if
 * the worker fails, the caller does the work in its own thread.
 */
import { fileURLToPath } from 'node:url';
import {
  isMainThread,
  parentPort,
  Worker,
  workerData,
  type MessagePort,
} from 'node:worker_threads';
import {
  buildRepoMap,
  loadFilesSync,
  readPolicy,
  symbolsOf,
  type LoadedFile,
  type RepoMap,
  type RepoMapOptions,
} from './build-repo-map.js';
import { listRepoFiles, type ListedFiles } from './list-repo-files.js';
import { importSpecs } from './code-graph.js';
import { extractIssueRefs } from './extract-issue-refs.js';
import { isIssueTemplate, readIssue } from './issue-template.js';
import { nameMatcher, namesIn } from './grep-code.js';
import { locatedNames, rankFiles, type Ranking } from './rank-files.js';
import { mayDescribeEveryFile } from './render-repo-outline.js';
import { termCounts, termQuery, type TermCache, type TermCounts } from './split-words.js';

interface Job {
  repo: string;
  /** The outline's token budget: whether unranked files' definitions can be shown. */
  outlineBudget: number;
}

/** Caller → worker: its share, read (after `Listing`). */
interface Loaded {
  loaded: [string, LoadedFile][];
  counted: [string, TermCounts][];
  held: [string, string[]][];
  specs: [string, string[]][];
}

/**
 * Reads `paths`, counts the issue's terms in them and finds the names the ranking looks up: one
 * thread's share of the work that is done for every file.
 */
function loadAndCount(
  repo: string,
  paths: readonly string[],
  issueText: string,
  reading: string,
): Loaded {
  const loaded = loadFilesSync(repo, paths, readPolicy(issueText));
  const query = termQuery(reading);
  const names = nameMatcher(locatedNames(extractIssueRefs(reading)));
  const cache: TermCache = new Map();
  const share: Loaded = { loaded, counted: [], held: [], specs: [] };
  for (const [path, l] of loaded) {
    if (!('file' in l)) continue;
    share.counted.push([path, termCounts(l.file.content, query, cache, l.file.identifiers)]);
    share.held.push([path, namesIn(l.file.content, names)]);
    share.specs.push([path, importSpecs(path, l.file.content)]);
  }
  return share;
}

export interface MapAndRanking {
  map: RepoMap;
  ranking: Ranking;
}

export async function mapAndRank(
  repo: string,
  issueText: string,
  options: Pick<RepoMapOptions, 'readSync' | 'listed' | 'preloaded'> = {},
): Promise<MapAndRanking> {
  const map = await buildRepoMap(repo, { ...options, ...readPolicy(issueText) });
  return { map, ranking: rankFiles(map, issueText) };
}

/** Files whose contents travel back from the worker: the code context shows at most the first 12. */
export const CONTENTS_KEPT = 32;

/**
 * The map as the caller needs it: contents only for the best-ranked files (the outline uses
 * paths and definitions), so that megabytes of text are not copied between threads.
 */
export function withoutUnrankedContents(
  result: MapAndRanking,
  outlineBudget: number,
): MapAndRanking {
  const keep = new Set(result.ranking.files.slice(0, CONTENTS_KEPT).map((f) => f.path));
  // Definitions are found from contents: those the outline may show are found before they go.
  const describeAll = mayDescribeEveryFile(result.map.files, outlineBudget);
  const files = result.map.files.map((f) =>
    keep.has(f.path) ? f : { ...f, symbols: describeAll ? symbolsOf(f) : [], content: '' },
  );
  return { ranking: result.ranking, map: { ...result.map, files } };
}

/**
 * This thread's share of the files. The worker starts its share later (it boots while this
 * thread lists the files), so this thread takes more than half.
 */
const CALLER_SHARE = 0.55;

/** Caller → worker, once listed: the files, and which of them the worker reads. */
interface Listing {
  listed: ListedFiles;
  from: number;
  issueText: string;
  /** The issue as the ranking reads it (`readIssue`), as every thread reads it. */
  reading: string;
}

/** The issue as the ranking reads it, with the listed issue templates read for it. */
function readIssueIn(repo: string, paths: readonly string[], issueText: string): string {
  const templates = loadFilesSync(repo, paths.filter(isIssueTemplate), readPolicy(issueText));
  return readIssue(
    issueText,
    templates.flatMap(([, l]) => ('file' in l ? [l.file] : [])),
  );
}

/** Starts the work in a worker when this module is compiled JavaScript; undefined otherwise. */
export function mapAndRankInWorker(
  repo: string,
  issueText: string,
  outlineBudget: number,
  /** Called once this thread has done its share of the reading, while the worker ranks. */
  whileRanking?: () => void,
): Promise<MapAndRanking> | undefined {
  const self = fileURLToPath(import.meta.url);
  if (!self.endsWith('.js')) return undefined;
  // The worker boots while this thread lists the files and reads its share.
  const worker = new Worker(self, {
    workerData: { repo, outlineBudget } satisfies Job,
  });
  const result = new Promise<MapAndRanking>((resolve, reject) => {
    worker.once('message', (message: MapAndRanking) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`context worker exited with ${code}`));
    });
  });
  // Awaited only after the listing: a worker that fails sooner must not be an unhandled rejection.
  result.catch(() => undefined);
  return listRepoFiles(repo)
    .then((listed) => {
      const from = Math.ceil(listed.paths.length * CALLER_SHARE);
      const reading = readIssueIn(repo, listed.paths, issueText);
      worker.postMessage({ listed, from, issueText, reading } satisfies Listing);
      // Blocking: this thread has nothing else to do meanwhile. Whatever it cannot read, the
      // worker reads (it waits for this answer: always send one).
      let share: Loaded = { loaded: [], counted: [], held: [], specs: [] };
      try {
        share = loadAndCount(repo, listed.paths.slice(0, from), issueText, reading);
      } catch {
        // the worker reads them all
      }
      worker.postMessage(share satisfies Loaded);
      whileRanking?.();
      return result;
    })
    .catch((err: unknown) => {
      void worker.terminate();
      throw err;
    });
}

/**
 * In the worker: reads its share of the listed files, then maps (with the caller's share) and
 * ranks.
 */
async function shareAndRank(job: Job, port: MessagePort): Promise<MapAndRanking> {
  const messages: unknown[] = [];
  const waiting: ((message: unknown) => void)[] = [];
  port.on('message', (message: unknown) => {
    const next = waiting.shift();
    if (next) next(message);
    else messages.push(message);
  });
  const receive = <T>(): Promise<T> =>
    new Promise<T>((resolve) => {
      const known = messages.shift();
      if (known !== undefined) resolve(known as T);
      else waiting.push((message) => resolve(message as T));
    });
  const { listed, from, issueText, reading } = await receive<Listing>();
  const mine = loadAndCount(job.repo, listed.paths.slice(from), issueText, reading);
  const other = await receive<Loaded>();
  port.removeAllListeners('message');
  const map = await buildRepoMap(job.repo, {
    ...readPolicy(issueText),
    readSync: true,
    listed,
    preloaded: new Map([...other.loaded, ...mine.loaded]),
  });
  const counted = new Map([...other.counted, ...mine.counted]);
  const held = new Map([...other.held, ...mine.held]);
  const importSpecs = new Map([...other.specs, ...mine.specs]);
  return { map, ranking: rankFiles(map, issueText, { counted, held, importSpecs }) };
}

if (!isMainThread && parentPort && (workerData as Job | undefined)?.repo !== undefined) {
  const job = workerData as Job;
  const port = parentPort;
  void shareAndRank(job, port).then(
    (result) => port.postMessage(withoutUnrankedContents(result, job.outlineBudget)),
    (err: unknown) => {
      throw err;
    },
  );
}
