/**
 * Repository map and ranking in a worker thread, so that a one-shot process (`autofix context`)
 * can load the tokenizer on the main thread at the same time. The calling thread also reads half
 * of the files (`loadFilesSync`) while the worker reads the other half: reading is a third of
 * the work and the calling thread has nothing else to do. The map comes back with contents only
 * for the best-ranked files (`withoutUnrankedContents`).
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
  type LoadedFile,
  type RepoMap,
  type RepoMapOptions,
} from './build-repo-map.js';
import { listRepoFiles } from './list-repo-files.js';
import { rankFiles, type Ranking } from './rank-files.js';

interface Job {
  repo: string;
  issueText: string;
}

/** Worker → caller: read these paths for me. Caller → worker: `Loaded`. */
interface LoadRequest {
  load: string[];
}
interface Loaded {
  loaded: [string, LoadedFile][];
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
export function withoutUnrankedContents(result: MapAndRanking): MapAndRanking {
  const keep = new Set(result.ranking.files.slice(0, CONTENTS_KEPT).map((f) => f.path));
  const files = result.map.files.map((f) => (keep.has(f.path) ? f : { ...f, content: '' }));
  return { ranking: result.ranking, map: { ...result.map, files } };
}

/** Starts the work in a worker when this module is compiled JavaScript; undefined otherwise. */
export function mapAndRankInWorker(
  repo: string,
  issueText: string,
  /** Called once this thread has done its share of the reading, while the worker ranks. */
  whileRanking?: () => void,
): Promise<MapAndRanking> | undefined {
  const self = fileURLToPath(import.meta.url);
  if (!self.endsWith('.js')) return undefined;
  return new Promise<MapAndRanking>((resolve, reject) => {
    const worker = new Worker(self, { workerData: { repo, issueText } satisfies Job });
    worker.on('message', (message: MapAndRanking | LoadRequest) => {
      if ('load' in message) {
        // This thread's share of the reading (blocking: it has nothing else to do meanwhile).
        // Whatever it cannot read, the worker reads (it waits for this answer: always send one).
        let loaded: Loaded['loaded'] = [];
        try {
          loaded = loadFilesSync(repo, message.load);
        } catch {
          // the worker reads them all
        }
        worker.postMessage({ loaded } satisfies Loaded);
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
  const theirs = new Promise<Loaded['loaded']>((resolve) => {
    port.once('message', (message: Loaded) => resolve(message.loaded));
  });
  port.postMessage({ load: listed.paths.slice(half) } satisfies LoadRequest);
  const mine = loadFilesSync(job.repo, listed.paths.slice(0, half));
  const preloaded = new Map([...mine, ...(await theirs)]);
  return mapAndRank(job.repo, job.issueText, { readSync: true, listed, preloaded });
}

if (!isMainThread && parentPort && (workerData as Job | undefined)?.repo !== undefined) {
  const job = workerData as Job;
  const port = parentPort;
  void shareAndRank(job, port).then(
    (result) => port.postMessage(withoutUnrankedContents(result)),
    (err: unknown) => {
      throw err;
    },
  );
}
