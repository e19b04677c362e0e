/**
 * Pull requests: listed (with GitHub's `head=owner:branch` and `base` filters), read, opened
 * (also from a fork: `head: "fork-owner:branch"`), edited; their review comments and reviews
 * (those a test added), their commits (from the repository reader) and review requests. Every
 * answer carries `head` and `base` with their repositories, as GitHub's do.
 */
import { repositoryJson, userJson } from '../repository-json.js';
import { NOT_FOUND, repoRoute, type RepoAt, type Route } from '../route.js';
import type { FakeStore } from '../store.js';
import type { FakePull } from '../types.js';
import { reviewRoutes } from './reviews.js';

const PULL_ID_BASE = 700_000;

/** The fields `PATCH /pulls/{n}` may change. */
const EDITABLE = ['title', 'body', 'state', 'base'] as const;

const ownerOf = (fullName: string): string => fullName.split('/')[0] ?? '';

function branchJson(store: FakeStore, fullName: string, ref: string, sha: string) {
  const owner = ownerOf(fullName);
  return {
    label: `${owner}:${ref}`,
    ref,
    sha,
    user: userJson(owner),
    repo: repositoryJson(store, fullName),
  };
}

function pullJson(store: FakeStore, at: RepoAt, p: FakePull) {
  const own = `${at.owner}/${at.repo}`;
  const refSha = (ref: string): string => store.repoReader?.refSha(ref) ?? '';
  return {
    id: PULL_ID_BASE + p.number,
    number: p.number,
    title: p.title,
    body: p.body,
    draft: p.draft,
    state: p.state,
    locked: false,
    html_url: `${store.base}/${own}/pull/${p.number}`,
    url: `${store.base}/api/v3/repos/${own}/pulls/${p.number}`,
    user: userJson(p.author),
    labels: [],
    // A fork's branch is not in the repository the reader reads.
    head: branchJson(store, p.headRepo ?? own, p.head, p.headRepo ? '' : refSha(p.head)),
    base: branchJson(store, own, p.base, refSha(p.base)),
  };
}

/** GitHub's `head` filter, `owner:branch` (a bare branch matches any owner here). */
function matchesHead(p: FakePull, at: RepoAt, head: string | undefined): boolean {
  if (!head) return true;
  const [owner, ref] = head.includes(':') ? head.split(':', 2) : [undefined, head];
  const headOwner = p.headRepo ? ownerOf(p.headRepo) : at.owner;
  return p.head === ref && (owner === undefined || owner.toLowerCase() === headOwner.toLowerCase());
}

interface CreatePullBody {
  title: string;
  body?: string;
  head: string;
  /** A fork in the same organisation (`owner/name`): GitHub's `head_repo`. */
  head_repo?: string;
  base: string;
  draft?: boolean;
}

/** The head branch and, for a fork's, the fork (`fork-owner:branch` names one of the same name). */
function headOf(b: CreatePullBody, at: RepoAt): Pick<FakePull, 'head' | 'headRepo'> {
  const [owner, ref] = b.head.includes(':') ? b.head.split(':', 2) : [at.owner, b.head];
  const fork =
    b.head_repo ??
    (owner?.toLowerCase() === at.owner.toLowerCase() ? undefined : `${owner}/${at.repo}`);
  return { head: ref ?? b.head, ...(fork ? { headRepo: fork } : {}) };
}

export function pullRoutes(store: FakeStore): Route[] {
  const find = (n: string) => store.pulls.find((p) => p.number === Number(n));
  return [
    repoRoute('GET', '/pulls', (at, req) => {
      const state = req.query.state ?? 'open';
      const found = store.pulls.filter(
        (p) =>
          matchesHead(p, at, req.query.head) &&
          (!req.query.base || p.base === req.query.base) &&
          (state === 'all' || p.state === state),
      );
      return { status: 200, body: found.map((p) => pullJson(store, at, p)) };
    }),
    repoRoute('GET', '/pulls/(\\d+)', (at) => {
      const pull = find(at.arg);
      return pull ? { status: 200, body: pullJson(store, at, pull) } : NOT_FOUND;
    }),
    repoRoute('POST', '/pulls', (at, req) => {
      const b = req.body as CreatePullBody;
      const pull = store.addPull({
        title: b.title,
        body: b.body ?? '',
        ...headOf(b, at),
        base: b.base,
        draft: !!b.draft,
        author: store.botLogin,
      });
      return { status: 201, body: pullJson(store, at, pull) };
    }),
    repoRoute('PATCH', '/pulls/(\\d+)', (at, req) => {
      const pull = find(at.arg);
      if (!pull) return NOT_FOUND;
      const edit = (req.body ?? {}) as Partial<FakePull>;
      for (const key of EDITABLE)
        if (edit[key] !== undefined) Object.assign(pull, { [key]: edit[key] });
      return { status: 200, body: pullJson(store, at, pull) };
    }),
    repoRoute('GET', '/pulls/(\\d+)/commits', ({ arg }) => {
      const pull = find(arg);
      if (!pull) return NOT_FOUND;
      const commits = store.repoReader?.commits(pull.base, pull.head) ?? [];
      return {
        status: 200,
        body: commits.map((c) => ({ sha: c.sha, commit: { message: c.message } })),
      };
    }),
    ...reviewRoutes(store),
  ];
}
