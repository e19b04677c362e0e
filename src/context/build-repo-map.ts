/**
 * The repository map: every listed text file with its size, first lines and definitions, and
 * every file left out with the reason. Contents are kept for ranking and the code context.
 */
import { openRepoFiles, type RepoFiles } from '../repo-files/open-repo-files.js';
import type { RepoFileRead } from '../repo-files/read-steps.js';
import { issueIsAboutTranslations } from './classify-path.js';
import { extractSymbols, languageOf, type SymbolDef } from './extract-symbols.js';
import { identifierCount } from './split-words.js';
import { listRepoFiles, type ListedFiles } from './list-repo-files.js';

export interface RepoFile {
  path: string;
  bytes: number;
  lines: number;
  language: string | undefined;
  /**
   * Definitions, found on first use by `symbolsOf`: a map of thousands of files shows the
   * definitions of a few dozen.
   */
  symbols?: SymbolDef[];
  /** First non-empty lines, shown in the map when a file has no recognised definitions. */
  firstLines: string[];
  content: string;
  /** How many identifiers it holds (BM25's document length), counted from its bytes. */
  identifiers?: number;
}

/** The file's definitions (by `extractSymbols`, once: kept on the file). */
export function symbolsOf(file: RepoFile): SymbolDef[] {
  return (file.symbols ??= extractSymbols(file.path, file.content));
}

export type SkipReason =
  'binary' | 'too-large' | 'generated' | 'translations' | 'symlink' | 'unreadable' | 'limit';

export interface SkippedFile {
  path: string;
  reason: SkipReason;
  bytes?: number;
  /** A link's own text (`symlink`): shown as what it is, never followed. */
  target?: string;
}

export interface RepoMap {
  root: string;
  source: 'git' | 'walk';
  files: RepoFile[];
  skipped: SkippedFile[];
  /** The files each recent commit changed, newest first (`ListedFiles.changes`). */
  changes: readonly (readonly string[])[];
}

/** Which files are read: the others are listed as skipped, with the reason. */
export interface FileSizeLimits {
  /** Source code (a language `languageOf` knows, not prose): default 1 MiB (`too-large`). */
  maxCodeBytes?: number;
  /** Everything else (docs, data, config): default 256 KiB (`too-large`). */
  maxFileBytes?: number;
  /**
   * Read gettext catalogs (`.po`, `.pot`): only for an issue about translations
   * (`issueIsAboutTranslations`). A Django project holds a thousand of them, a fifth of its bytes,
   * and they say nothing about where code goes wrong (`translations`).
   */
  readTranslations?: boolean;
}

export interface RepoMapOptions extends FileSizeLimits {
  /** Total bytes read; later files are skipped with reason `limit` (default 64 MiB). */
  maxTotalBytes?: number;
  /** A job worktree's git directory: git is told it, never follows the `.git` link. */
  gitDir?: string;
  /**
   * Read files with blocking calls: the same map, about 0.3 s sooner for 2,000 files (no promise
   * round trips per file), but the thread does nothing else meanwhile. For a thread of its own
   * (`rank-in-worker.ts`), not for a process that serves other work.
   */
  readSync?: boolean;
  /** The listing, when the caller already has it (`listRepoFiles` with the same root and gitDir). */
  listed?: ListedFiles;
  /**
   * Files another thread already loaded with `loadFilesSync` (same size limits), by path: used
   * as they are; any other listed path is read here. The map is the same as without them.
   */
  preloaded?: ReadonlyMap<string, LoadedFile>;
}

/**
 * The central modules of large projects are large: mypy's `checker.py` (445 KiB), matplotlib's
 * `axes/_axes.py`, xarray's `dataset.py` (over 300 KiB). Left out, no issue could be localized to
 * them and no fix could see them. Code gets a higher limit than data and prose, whose large
 * files are tables, notebooks and changelogs.
 */
const DEFAULT_LIMITS: Required<FileSizeLimits> = {
  maxCodeBytes: 1024 * 1024,
  maxFileBytes: 256 * 1024,
  readTranslations: false,
};

const DEFAULT_MAX_TOTAL_BYTES = 64 * 1024 * 1024;

const TRANSLATION_CATALOG = /\.pot?$/i;

const KIB = 1024;
const size = (bytes: number): string =>
  bytes % (KIB * KIB) === 0 ? `${bytes / (KIB * KIB)} MiB` : `${Math.round(bytes / KIB)} KiB`;

/** Why files were left out, for the reasons a maintainer may wonder about (`autofix context`). */
export function skipExplanation(reason: SkipReason): string | undefined {
  if (reason === 'too-large')
    return `over ${size(DEFAULT_LIMITS.maxCodeBytes)} of code or ${size(DEFAULT_LIMITS.maxFileBytes)} of other text`;
  if (reason === 'translations') return 'read only for an issue about translations';
  if (reason === 'limit') return `past the ${size(DEFAULT_MAX_TOTAL_BYTES)} read in all`;
  return undefined;
}

/** What is read for an issue: the gettext catalogs only when it is about translations. */
export const readPolicy = (issueText: string): FileSizeLimits => ({
  readTranslations: issueIsAboutTranslations(issueText),
});

/** Source code: a language `languageOf` knows, other than prose. */
function isCode(path: string): boolean {
  const language = languageOf(path);
  return language !== undefined && language !== 'markdown';
}

function limitFor(path: string, limits: Required<FileSizeLimits>): number {
  return isCode(path) ? limits.maxCodeBytes : limits.maxFileBytes;
}

function limitsOf(options: FileSizeLimits): Required<FileSizeLimits> {
  return {
    maxCodeBytes: options.maxCodeBytes ?? DEFAULT_LIMITS.maxCodeBytes,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_LIMITS.maxFileBytes,
    readTranslations: options.readTranslations ?? DEFAULT_LIMITS.readTranslations,
  };
}

const BINARY_EXTENSIONS = new Set(
  (
    'png jpg jpeg gif bmp ico webp avif tif tiff psd svgz pdf zip gz tgz bz2 xz 7z rar jar war ear ' +
    'class exe dll so dylib a o obj bin dat db sqlite woff woff2 ttf otf eot mp3 mp4 mov avi wav ' +
    'ogg flac webm wasm pyc pyo node glb gltf blend fbx iso dmg apk ipa keystore p12 pfx der'
  ).split(' '),
);

/** Machine-written files: large, noisy for ranking, never what an issue is about. */
const GENERATED = [
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb|Cargo\.lock|poetry\.lock|Pipfile\.lock|composer\.lock|Gemfile\.lock|go\.sum|uv\.lock)$/,
  /\.min\.(js|css)$/,
  /\.(map|snap)$/,
];

function skipByName(path: string, limits: Required<FileSizeLimits>): SkipReason | undefined {
  if (!limits.readTranslations && TRANSLATION_CATALOG.test(path)) return 'translations';
  const ext = path.includes('.') ? path.slice(path.lastIndexOf('.') + 1).toLowerCase() : '';
  if (BINARY_EXTENSIONS.has(ext)) return 'binary';
  if (GENERATED.some((re) => re.test(path))) return 'generated';
  return undefined;
}

function firstLinesOf(content: string, count = 2): string[] {
  const out: string[] = [];
  // Line by line from the start (not a split of the whole file: only the first lines matter).
  for (let at = 0; at <= content.length;) {
    let eol = content.indexOf('\n', at);
    if (eol < 0) eol = content.length;
    const trimmed = content.slice(at, eol).trim();
    at = eol + 1;
    if (trimmed === '') continue;
    out.push(trimmed.length > 100 ? `${trimmed.slice(0, 100)}…` : trimmed);
    if (out.length === count) break;
  }
  return out;
}

/** What `content.split('\n').length` would be, without the array. */
function splitCount(content: string): number {
  let n = 1;
  for (let at = content.indexOf('\n'); at >= 0; at = content.indexOf('\n', at + 1)) n++;
  return n;
}

/** One listed path, read: its entry in the map or the reason it was left out. */
export type LoadedFile = { file: RepoFile } | { skipped: SkippedFile };
type Loaded = LoadedFile;

function loadBuffer(path: string, buffer: Buffer): Loaded {
  if (buffer.subarray(0, 8000).includes(0))
    return { skipped: { path, reason: 'binary', bytes: buffer.length } };
  const content = buffer.toString('utf8').replace(/\r\n/g, '\n');
  return {
    file: {
      path,
      bytes: buffer.length,
      lines: content === '' ? 0 : splitCount(content) - (content.endsWith('\n') ? 1 : 0),
      language: languageOf(path),
      firstLines: firstLinesOf(content),
      content,
      identifiers: identifierCount(buffer),
    },
  };
}

/** A listed path the reader refused, as the map reports it. */
function skippedOf(got: Exclude<RepoFileRead, { ok: true }>): Loaded {
  const { path } = got;
  if (got.reason === 'symlink' || got.reason === 'symlink-on-path')
    return { skipped: { path, reason: 'symlink', ...(got.target ? { target: got.target } : {}) } };
  if (got.reason === 'too-large')
    return { skipped: { path, reason: 'too-large', bytes: got.bytes } };
  // Listed by git but gone from the work tree, a FIFO, a hard link…: say so, do not fail the map.
  return { skipped: { path, reason: 'unreadable' } };
}

const loadedOf = (path: string, got: RepoFileRead): Loaded =>
  got.ok ? loadBuffer(path, got.bytes) : skippedOf(got);

async function load(
  files: RepoFiles,
  path: string,
  limits: Required<FileSizeLimits>,
): Promise<Loaded> {
  const byName = skipByName(path, limits);
  if (byName) return { skipped: { path, reason: byName } };
  return loadedOf(path, await files.read(path, { maxBytes: limitFor(path, limits) }));
}

/** `load` with blocking reads (`RepoMapOptions.readSync`). */
function loadSync(files: RepoFiles, path: string, limits: Required<FileSizeLimits>): Loaded {
  const byName = skipByName(path, limits);
  if (byName) return { skipped: { path, reason: byName } };
  return loadedOf(path, files.readSync(path, { maxBytes: limitFor(path, limits) }));
}

/**
 * The order files are read in: code first, then the rest, each in the listing's order (what a
 * total limit leaves out is never the code).
 */
const readingOrder = (paths: readonly string[]): string[] => [
  ...paths.filter(isCode),
  ...paths.filter((p) => !isCode(p)),
];

/**
 * Reads `paths` (blocking calls) as `buildRepoMap` would: to share the reading between threads.
 * A thread's share stops, as the map does, once the total limit is read (code first): a
 * monorepo of gigabytes is not read whole only for the map to leave most of it out. A path not
 * returned is read by `buildRepoMap` if the map needs it, so the map is the same either way.
 */
export function loadFilesSync(
  root: string,
  paths: readonly string[],
  options: FileSizeLimits & Pick<RepoMapOptions, 'maxTotalBytes'> = {},
): [string, LoadedFile][] {
  const limits = limitsOf(options);
  const maxTotalBytes = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const out: [string, LoadedFile][] = [];
  const files = openRepoFiles(root);
  let total = 0;
  for (const p of readingOrder(paths)) {
    if (total >= maxTotalBytes) break;
    const loaded = loadSync(files, p, limits);
    out.push([p, loaded]);
    if ('file' in loaded) total += loaded.file.bytes;
  }
  return out;
}

export async function buildRepoMap(root: string, options: RepoMapOptions = {}): Promise<RepoMap> {
  const limits = limitsOf(options);
  const maxTotalBytes = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const { paths, source, changes } =
    options.listed ?? (await listRepoFiles(root, options.gitDir ? { gitDir: options.gitDir } : {}));
  const preloaded = options.preloaded;
  const reader = openRepoFiles(root);
  // Read code first, then the rest, so that a repository over the total limit (translations,
  // fixtures, notebooks) loses data and prose, not the modules listed after them; the map keeps
  // the listing's order.
  const order = readingOrder(paths);
  const outcome = new Map<string, Loaded | undefined>();
  let total = 0;
  const BATCH = 64;
  for (let i = 0; i < order.length; i += BATCH) {
    const batch = order.slice(i, i + BATCH);
    if (total >= maxTotalBytes) continue; // left out: `limit`
    const loadedBatch = options.readSync
      ? batch.map((p) => preloaded?.get(p) ?? loadSync(reader, p, limits))
      : await Promise.all(
          batch.map(async (p) => preloaded?.get(p) ?? (await load(reader, p, limits))),
        );
    loadedBatch.forEach((loaded, k) => {
      outcome.set(batch[k]!, loaded);
      if ('file' in loaded) total += loaded.file.bytes;
    });
  }
  const files: RepoFile[] = [];
  const skipped: SkippedFile[] = [];
  for (const path of paths) {
    const loaded = outcome.get(path);
    if (loaded === undefined) skipped.push({ path, reason: 'limit' });
    else if ('skipped' in loaded) skipped.push(loaded.skipped);
    else files.push(loaded.file);
  }
  return { root, source, files, skipped, changes };
}
