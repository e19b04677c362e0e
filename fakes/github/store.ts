/**
 * The fake GitHub's state: what the routes read and change and what a test arranges or inspects.
 * The fake serves one repository, under whichever owner and name a request's path gives (id 1);
 * the only other repositories it knows are forks that pull requests come from.
 */
import type {
  FakeCheckRun,
  FakeComment,
  FakeGitHubArrange,
  FakeGitHubOptions,
  FakePull,
  FakeRepoReader,
  FakeReviewNote,
  RecordedRequest,
} from './types.js';

export type StoredReviewNote = FakeReviewNote & { id: number; at: string };

export interface FakeStore {
  options: FakeGitHubOptions;
  botLogin: string;
  /** The app whose JWT and installation tokens the fake takes. */
  ownApp: { id: number; slug: string };
  /** `http://127.0.0.1:<port>` once the server listens. */
  base: string;
  requests: RecordedRequest[];
  comments: Map<number, FakeComment>;
  pulls: FakePull[];
  labels: Set<string>;
  tokens: Set<string>;
  roles: Map<string, string>;
  files: Map<string, string>;
  issues: Map<number, { title: string; body: string }>;
  reviewNotes: StoredReviewNote[];
  checkRuns: FakeCheckRun[];
  requiredChecks: Map<string, string[]>;
  repoReader: FakeRepoReader | undefined;
  /** Fork repositories by lower-cased full name → their id. */
  forks: Map<string, number>;
  /** The next id of a comment, reaction, review note or check run. */
  nextId(): number;
  addPull: FakeGitHubArrange['addPull'];
  addCheckRun: FakeGitHubArrange['addCheckRun'];
  addReviewNote: FakeGitHubArrange['addReviewNote'];
}

/** The repository every path names has this id; forks count up from the next one. */
export const REPOSITORY_ID = 1;
const FIRST_ID = 1000;
const FIRST_PULL = 100;

export function createStore(options: FakeGitHubOptions): FakeStore {
  const slug = options.appSlug ?? 'autofix-test';
  let nextId = FIRST_ID;
  let nextPull = FIRST_PULL;
  const store: FakeStore = {
    options,
    botLogin: `${slug}[bot]`,
    ownApp: { id: options.appId ?? 1, slug },
    base: '',
    requests: [],
    comments: new Map(),
    pulls: [],
    labels: new Set(),
    tokens: new Set(),
    roles: new Map(),
    files: new Map(),
    issues: new Map(),
    reviewNotes: [],
    checkRuns: [],
    requiredChecks: new Map(),
    repoReader: undefined,
    forks: new Map(),
    nextId: () => nextId++,
    addPull(spec) {
      const pull: FakePull = { ...spec, number: spec.number ?? nextPull++, state: 'open' };
      const fork = spec.headRepo?.toLowerCase();
      if (fork && !store.forks.has(fork))
        store.forks.set(fork, REPOSITORY_ID + 1 + store.forks.size);
      store.pulls.push(pull);
      return pull;
    },
    addCheckRun(spec) {
      const run: FakeCheckRun = {
        status: 'queued',
        conclusion: null,
        started_at: new Date().toISOString(),
        output: {},
        annotations: [],
        app: store.ownApp,
        history: [],
        ...spec,
        id: nextId++,
      };
      store.checkRuns.push(run);
      return run;
    },
    addReviewNote(note) {
      const at = new Date(Date.UTC(2026, 0, 1) + store.reviewNotes.length * 60_000).toISOString();
      store.reviewNotes.push({ ...note, id: nextId++, at });
    },
  };
  return store;
}
