/**
 * What the fake GitHub keeps and what a test holds of it: the records it keeps, the options it
 * starts with and the handle `startFakeGitHub` gives back.
 */
import type { KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FakeHookDeliveries } from './hook-deliveries.js';

export interface RecordedRequest {
  method: string;
  /** Path below `/api/v3`, decoded, without the query. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** Epoch milliseconds (sub-ms precision) when the request arrived. */
  at: number;
}

export interface FakeComment {
  id: number;
  issueNumber: number;
  body: string;
  /** Every body the comment had, the first included. */
  history: string[];
}

export interface FakePull {
  number: number;
  title: string;
  body: string;
  /** The head branch's name (`head.ref`). */
  head: string;
  base: string;
  draft: boolean;
  author: string;
  state: 'open' | 'closed';
  /**
   * The fork the head branch lives in (`owner/name`, GitHub's `head.repo.full_name`); absent:
   * the pull request's own repository.
   */
  headRepo?: string;
}

/** A review's line comment or verdict on a pull request (`association`: OWNER, MEMBER, COLLABORATOR, NONE…). */
export interface FakeReviewNote {
  pull: number;
  author: string;
  body: string;
  association?: string;
  /** Line comment: file and line; `outdated` when the line left the diff. */
  path?: string;
  line?: number;
  outdated?: boolean;
  /** Review verdict (APPROVED, CHANGES_REQUESTED, COMMENTED): makes it a review, not a line comment. */
  state?: string;
}

/** A check run as the fake keeps it (`POST/PATCH /repos/{o}/{r}/check-runs`). */
export interface FakeCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  external_id?: string;
  details_url?: string;
  started_at: string;
  completed_at?: string;
  output: { title?: string; summary?: string; text?: string };
  /** Every annotation sent, in order: an update's are appended, as GitHub does. */
  annotations: Record<string, unknown>[];
  /** The app that owns it: only that app may update it. */
  app: { id: number; slug: string };
  /** Every body received for it: the create, then each update. */
  history: unknown[];
  /** Its job's log, for a GitHub Actions check run (`GET /actions/jobs/{id}/logs`). */
  log?: string;
}

/**
 * What the fake reads from the repository's git data, when a test wires it to a real (bare)
 * repository: a pull request's head and base commits and its commits.
 */
export interface FakeRepoReader {
  /** The commit a branch points at, or undefined. */
  refSha(ref: string): string | undefined;
  /** The commits on `head` that are not on `base`, oldest first. */
  commits(base: string, head: string): { sha: string; message: string }[];
}

/**
 * A disruption (bench:chaos): the next `times` requests matching `method` (`*` = any) and `path`
 * are answered after `delayMs`, with `status`/`headers` instead of the real answer when given
 * (e.g. 403 with `Retry-After`), or not at all with `drop` (the socket is destroyed after the
 * delay: a time-out as the client sees it). Without status or drop, only the delay.
 */
export interface Disruption {
  method: string;
  path: string | RegExp;
  times: number;
  status?: number;
  headers?: Record<string, string>;
  message?: string;
  delayMs?: number;
  drop?: boolean;
}

export interface FakeGitHubOptions {
  /** Public key of the app: app endpoints must present a JWT it verifies. */
  appPublicKey?: KeyObject | string;
  appSlug?: string;
  appId?: number;
  /** Role of users not set with setPermission. */
  defaultRole?: string;
}

/** What a test may arrange before or during a run (see FakeGitHub). */
export interface FakeGitHubArrange {
  setPermission(login: string, role: string): void;
  setFile(path: string, content: string | undefined): void;
  setIssue(number: number, title: string, body: string): void;
  /** A pull request; `headRepo` (a fork's `owner/name`) makes it a fork's. */
  addPull(pull: Omit<FakePull, 'number' | 'state'> & { number?: number }): FakePull;
  addReviewNote(note: FakeReviewNote): void;
  /** Reads pull requests' commits from a real repository (see FakeRepoReader). */
  setRepoReader(reader: FakeRepoReader): void;
  /** The base branch's required status checks (branch protection). */
  setRequiredChecks(branch: string, contexts: string[]): void;
  /** A check run that exists already, e.g. another app's (`app`) of the same name. */
  addCheckRun(
    run: Pick<FakeCheckRun, 'name' | 'head_sha'> &
      Partial<Omit<FakeCheckRun, 'id' | 'name' | 'head_sha'>>,
  ): FakeCheckRun;
}

/** How a test makes chosen requests fail, stall or coincide with something else. */
export interface FakeGitHubFaults {
  failNext(method: string, path: string | RegExp, status?: number, times?: number): void;
  /** Delays, drops or answers the next matching requests (see Disruption). */
  disruptNext(disruption: Disruption): void;
  /**
   * Runs `run` at the next matching request (e.g. SIGKILL the worker that sent it): `before`
   * the fake acts on it (the request is then dropped unanswered, nothing done), or `after` it
   * acted and before it answers (the side effect happened; the caller never hears of it).
   */
  interceptNext(
    method: string,
    path: string | RegExp,
    when: 'before' | 'after',
    run: () => void | Promise<void>,
  ): void;
}

export interface FakeGitHub extends FakeHookDeliveries, FakeGitHubArrange, FakeGitHubFaults {
  port: number;
  /** `127.0.0.1:<port>`, the value of GHE_HOST. */
  host: string;
  apiUrl: string;
  env: { GHE_HOST: string; GHE_PROTOCOL: 'http' };
  botLogin: string;
  requests: RecordedRequest[];
  comments: Map<number, FakeComment>;
  pulls: FakePull[];
  labels: Set<string>;
  tokens: Set<string>;
  /** Check runs in creation order (this app's and those added with addCheckRun). */
  checkRuns: FakeCheckRun[];
  calls(method: string, path: string | RegExp): RecordedRequest[];
  close(): Promise<void>;
}
