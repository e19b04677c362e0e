/**
 * Repository map and ranking in a worker thread, so that a one-shot process (`autofix context`)
 * can load the tokenizer (o200k: about half a second of CPU) on the main thread at the same time.
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
    (result) => port.postMessage(result),
    (err: unknown) => {
      throw err;
    },
  );
}
