/**
 * Repository map and ranking in a worker thread, so that a one-shot process (`autofix context`)
 * can load the tokenizer (o200k: about half a second of CPU) on the main thread at the same time.
 * The map comes back with contents only for the best-ranked files (`withoutUnrankedContents`).
 * Only from compiled JavaScript (a `.ts` module cannot be a worker under jest); otherwise, and if
 * the worker fails, the caller does the work in its own thread.
 */
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { buildRepoMap, type RepoMap } from './build-repo-map.js';
import { rankFiles, type Ranking } from './rank-files.js';

interface Job {
  repo: string;
  issueText: string;
}

export interface MapAndRanking {
  map: RepoMap;
  ranking: Ranking;
}

export async function mapAndRank(repo: string, issueText: string): Promise<MapAndRanking> {
  const map = await buildRepoMap(repo);
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
): Promise<MapAndRanking> | undefined {
  const self = fileURLToPath(import.meta.url);
  if (!self.endsWith('.js')) return undefined;
  return new Promise<MapAndRanking>((resolve, reject) => {
    const worker = new Worker(self, { workerData: { repo, issueText } satisfies Job });
    worker.once('message', (result: MapAndRanking) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`context worker exited with ${code}`));
    });
  });
}

if (!isMainThread && parentPort && (workerData as Job | undefined)?.repo !== undefined) {
  const job = workerData as Job;
  const port = parentPort;
  void mapAndRank(job.repo, job.issueText).then(
    (result) => port.postMessage(withoutUnrankedContents(result)),
    (err: unknown) => {
      throw err;
    },
  );
}
