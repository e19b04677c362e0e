/**
 * The repository as the tools see it: the tracked files (and those this run created), read
 * through the one reader and the tools' read policy, each read once and kept until an edit
 * changes it — `search` over 2,000 files is then a scan of memory, not of the disk.
 */
import { worktreeGit, type WorktreeRef } from '../git/worktree-git.js';
import { decodeText, openRepoFiles } from '../repo-files/open-repo-files.js';
import type { EditFormat } from '../config/repo-config.js';
import { toolMayRead } from './read-policy.js';
import { DEFAULT_TOOL_LIMITS, type ToolLimits } from './tool-limits.js';

export type ToolRead = { ok: true; text: string } | { ok: false; message: string };

/** What `run_tests` asks for: a validate command by number, the reproduction, or test files. */
export interface TestRequest {
  command?: number;
  reproduction?: boolean;
  files?: string[];
}

/** What `run_tests` answers: the structured report the model reads. */
export interface TestReport {
  command: string;
  exitCode: number | null;
  passed: boolean;
  failing: string[];
  output: string;
}

/** What `propose_edit` answers: what the edit engine did, or its refusal. */
export type EditReport =
  | { applied: true; files: { path: string; created: boolean }[]; notes: string[] }
  | { applied: false; refusal: string };

export interface ToolWorkspace {
  paths(): Promise<readonly string[]>;
  read(path: string): Promise<ToolRead>;
  /**
   * Every readable file with its text (what `search` and the lookups scan), the files the run's
   * ranking scored first, most relevant to the issue first, then the rest in path order — so every
   * lookup answers with the likeliest files first. Read in blocking batches that yield to the
   * event loop between them: 15,000 files in a second, where one promise per file took several.
   */
  texts(): Promise<{ path: string; content: string }[]>;
  /** The validate commands `run_tests` may name by number. */
  testCommands(): readonly string[];
  runTests?(request: TestRequest, signal?: AbortSignal): Promise<TestReport>;
  proposeEdit?(format: EditFormat, text: string): Promise<EditReport>;
  /** The edit formats `propose_edit` takes; the first is the repository's. */
  editFormats: readonly EditFormat[];
  limits: ToolLimits;
  /** Forget what an edit changed (the next read sees it). */
  changed(paths: readonly string[], created?: readonly string[]): void;
}

export interface ToolWorkspaceOptions {
  limits?: Partial<ToolLimits>;
  testCommands?: readonly string[];
  runTests?: ToolWorkspace['runTests'];
  proposeEdit?: ToolWorkspace['proposeEdit'];
  editFormats?: readonly EditFormat[];
  /** The run's ranking of the repository for the issue (paths, most relevant first). */
  ranked?: readonly string[];
}

/** A file tools show is source, not data: 2 MiB is more than any file worth reading. */
const MAX_TOOL_FILE_BYTES = 2 * 1024 * 1024;
/** Files read between two turns of the event loop. */
const TEXT_BATCH = 256;

/** `paths` with the ranked ones first, in the ranking's order, then the rest in path order. */
function byRelevance(paths: readonly string[], ranked: readonly string[]): string[] {
  const rank = new Map(ranked.map((p, i) => [p, i]));
  const at = (p: string): number => rank.get(p) ?? Infinity;
  return [...paths].sort(
    (a, b) => (at(a) === at(b) ? 0 : at(a) - at(b)) || (a < b ? -1 : a > b ? 1 : 0),
  );
}

export function createToolWorkspace(
  ref: WorktreeRef,
  options: ToolWorkspaceOptions = {},
): ToolWorkspace {
  const files = openRepoFiles(ref.worktree);
  const texts = new Map<string, ToolRead>();
  const created = new Set<string>();
  let tracked: Promise<Set<string>> | undefined;
  const listed = (): Promise<Set<string>> =>
    (tracked ??= worktreeGit(ref, ['-c', 'core.quotepath=off', 'ls-files', '-z', '--cached']).then(
      (r) => new Set(r.stdout.split('\0').filter((p) => p !== '')),
    ));
  let readableNow: Set<string> | undefined;
  /** Tracked and created paths, built once (and again after an edit creates a file). */
  const readable = async (): Promise<Set<string>> =>
    (readableNow ??= new Set([...(await listed()), ...created]));
  let orderNow: { of: Set<string>; paths: string[] } | undefined;
  /** What the tools may read, in relevance order: sorted once per readable set. */
  const ordered = async (): Promise<string[]> => {
    const all = await readable();
    if (orderNow?.of !== all) {
      const may = [...all].filter((p) => toolMayRead(p, all) === undefined);
      orderNow = { of: all, paths: byRelevance(may, options.ranked ?? []) };
    }
    return orderNow.paths;
  };
  return {
    paths: async () => {
      const all = await readable();
      return [...all].filter((p) => toolMayRead(p, all) === undefined).sort();
    },
    read: async (path) => {
      const known = texts.get(path);
      if (known) return known;
      const denied = toolMayRead(path, await readable());
      if (denied) return { ok: false, message: denied };
      const got = await files.readText(path, { maxBytes: MAX_TOOL_FILE_BYTES });
      const read: ToolRead = got.ok
        ? { ok: true, text: got.text }
        : { ok: false, message: got.message };
      texts.set(path, read);
      return read;
    },
    texts: async () => {
      const out: { path: string; content: string }[] = [];
      const paths = await ordered();
      for (let i = 0; i < paths.length; i += TEXT_BATCH) {
        if (i > 0) await new Promise((done) => setImmediate(done));
        for (const path of paths.slice(i, i + TEXT_BATCH)) {
          let read = texts.get(path);
          if (!read) {
            const got = files.readSync(path, { maxBytes: MAX_TOOL_FILE_BYTES });
            const text = got.ok ? decodeText(got.bytes) : undefined;
            read =
              text === undefined
                ? {
                    ok: false,
                    message: got.ok ? `\`${path}\` is a binary or non-UTF-8 file` : got.message,
                  }
                : { ok: true, text };
            texts.set(path, read);
          }
          if (read.ok) out.push({ path, content: read.text });
        }
      }
      return out;
    },
    testCommands: () => options.testCommands ?? [],
    ...(options.runTests ? { runTests: options.runTests } : {}),
    ...(options.proposeEdit ? { proposeEdit: options.proposeEdit } : {}),
    editFormats: options.editFormats ?? ['udiff'],
    limits: { ...DEFAULT_TOOL_LIMITS, ...options.limits },
    changed: (paths, newFiles = []) => {
      for (const p of [...paths, ...newFiles]) texts.delete(p);
      for (const p of newFiles) created.add(p);
      if (newFiles.length > 0) readableNow = undefined;
    },
  };
}
