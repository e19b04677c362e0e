/**
 * Repository map and ranking in a worker thread, so that a one-shot process (`autofix context`)
 * can load the tokenizer on the main thread at the same time. The calling thread also reads half
 * of the files (`loadFilesSync`) and counts the issue's terms in them while the worker reads and
 * counts the other half: reading and counting are most of the work, and the calling thread has
 * nothing else to do. The map comes back with contents only for the best-ranked files
 * (`withoutUnrankedContents`).
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
  symbolsOf,
  type LoadedFile,
  type RepoMap,
  type RepoMapOptions,
} from './build-repo-map.js';
import { listRepoFiles } from './list-repo-files.js';
import { rankFiles, type Ranking } from './rank-files.js';
import { mayDescribeEveryFile } from './render-repo-outline.js';
import { termCounts, termQuery, type TermCache, type TermCounts } from './split-words.js';

interface Job {
  repo: string;
  issueText: string;
  /** The outline's token budget: whether unranked files' definitions can be shown. */
  outlineBudget: number;
}

/** Worker → caller: read these paths for me. Caller → worker: `Loaded`. */
interface LoadRequest {
  load: string[];
}
interface Loaded {
  loaded: [string, LoadedFile][];
  counted: [string, TermCounts][];
}

/** Reads `paths` and counts the issue's terms in them: one thread's share of the work. */
function loadAndCount(repo: string, paths: readonly string[], issueText: string): Loaded {
  const loaded = loadFilesSync(repo, paths);
  const query = termQuery(issueText);
  const cache: TermCache = new Map();
  const counted: Loaded['counted'] = [];
  for (const [path, l] of loaded)
    if ('file' in l) counted.push([path, termCounts(l.file.content, query, cache)]);
  return { loaded, counted };
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
  const map = await buildRepoMap(repo, options);
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
  return new Promise<MapAndRanking>((resolve, reject) => {
    const worker = new Worker(self, {
      workerData: { repo, issueText, outlineBudget } satisfies Job,
    });
    worker.on('message', (message: MapAndRanking | LoadRequest) => {
      if ('load' in message) {
        // This thread's share of the reading (blocking: it has nothing else to do meanwhile).
        // Whatever it cannot read, the worker reads (it waits for this answer: always send one).
        let share: Loaded = { loaded: [], counted: [] };
        try {
          share = loadAndCount(repo, message.load, issueText);
        } catch {
          // the worker reads them all
        }
        worker.postMessage(share satisfies Loaded);
        whileRanking?.();
        return;
      }
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`context worker exited with ${code}`));
    });
  });
}

/**
 * In the worker: lists the files, hands the second half to the calling thread to read, reads
 * the first half, then maps (with both halves) and ranks.
 */
async function shareAndRank(job: Job, port: MessagePort): Promise<MapAndRanking> {
  const listed = await listRepoFiles(job.repo);
  const half = Math.ceil(listed.paths.length / 2);
  const theirs = new Promise<Loaded>((resolve) => {
    port.once('message', (message: Loaded) => resolve(message));
  });
  port.postMessage({ load: listed.paths.slice(half) } satisfies LoadRequest);
  const mine = loadAndCount(job.repo, listed.paths.slice(0, half), job.issueText);
  const other = await theirs;
  const map = await buildRepoMap(job.repo, {
    readSync: true,
    listed,
    preloaded: new Map([...mine.loaded, ...other.loaded]),
  });
  const counted = new Map([...mine.counted, ...other.counted]);
  return { map, ranking: rankFiles(map, job.issueText, { counted }) };
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
