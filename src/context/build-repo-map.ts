/**
 * The repository map: every listed text file with its size, definitions and first lines, and
 * every file left out with the reason. Contents are kept for ranking and the code context.
 */
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { extractSymbols, languageOf, type SymbolDef } from './extract-symbols.js';
import { listRepoFiles } from './list-repo-files.js';

export interface RepoFile {
  path: string;
  bytes: number;
  lines: number;
  language: string | undefined;
  symbols: SymbolDef[];
  /** First non-empty lines, shown in the map when a file has no recognised definitions. */
  firstLines: string[];
  content: string;
}

export type SkipReason = 'binary' | 'too-large' | 'generated' | 'symlink' | 'unreadable' | 'limit';

export interface SkippedFile {
  path: string;
  reason: SkipReason;
  bytes?: number;
}

export interface RepoMap {
  root: string;
  source: 'git' | 'walk';
  files: RepoFile[];
  skipped: SkippedFile[];
}

export interface RepoMapOptions {
  /** Larger files are listed as skipped (default 256 KiB). */
  maxFileBytes?: number;
  /** Total bytes read; later files are skipped with reason `limit` (default 64 MiB). */
  maxTotalBytes?: number;
  /** A job worktree's git directory: git is told it, never follows the `.git` link. */
  gitDir?: string;
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

function skipByName(path: string): SkipReason | undefined {
  const ext = path.includes('.') ? path.slice(path.lastIndexOf('.') + 1).toLowerCase() : '';
  if (BINARY_EXTENSIONS.has(ext)) return 'binary';
  if (GENERATED.some((re) => re.test(path))) return 'generated';
  return undefined;
}

function firstLinesOf(content: string, count = 2): string[] {
  const out: string[] = [];
  for (const line of content.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    out.push(trimmed.length > 100 ? `${trimmed.slice(0, 100)}…` : trimmed);
    if (out.length === count) break;
  }
  return out;
}

type Loaded = { file: RepoFile } | { skipped: SkippedFile };

async function load(root: string, path: string, maxFileBytes: number): Promise<Loaded> {
  const byName = skipByName(path);
  if (byName) return { skipped: { path, reason: byName } };
  try {
    const stat = await lstat(join(root, path));
    if (stat.isSymbolicLink()) return { skipped: { path, reason: 'symlink' } };
    if (!stat.isFile()) return { skipped: { path, reason: 'unreadable' } };
    if (stat.size > maxFileBytes)
      return { skipped: { path, reason: 'too-large', bytes: stat.size } };
    const buffer = await readFile(join(root, path));
    if (buffer.subarray(0, 8000).includes(0))
      return { skipped: { path, reason: 'binary', bytes: buffer.length } };
    const content = buffer.toString('utf8').replace(/\r\n/g, '\n');
    return {
      file: {
        path,
        bytes: buffer.length,
        lines: content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0),
        language: languageOf(path),
        symbols: extractSymbols(path, content),
        firstLines: firstLinesOf(content),
        content,
      },
    };
  } catch {
    // Listed by git but deleted from the work tree, or unreadable: say so, do not fail the map.
    return { skipped: { path, reason: 'unreadable' } };
  }
}

export async function buildRepoMap(root: string, options: RepoMapOptions = {}): Promise<RepoMap> {
  const maxFileBytes = options.maxFileBytes ?? 256 * 1024;
  const maxTotalBytes = options.maxTotalBytes ?? 64 * 1024 * 1024;
  const { paths, source } = await listRepoFiles(
    root,
    options.gitDir ? { gitDir: options.gitDir } : {},
  );
  const files: RepoFile[] = [];
  const skipped: SkippedFile[] = [];
  let total = 0;
  const BATCH = 64;
  for (let i = 0; i < paths.length; i += BATCH) {
    const batch = paths.slice(i, i + BATCH);
    if (total >= maxTotalBytes) {
      skipped.push(...batch.map((path) => ({ path, reason: 'limit' as const })));
      continue;
    }
    for (const loaded of await Promise.all(batch.map((p) => load(root, p, maxFileBytes)))) {
      if ('skipped' in loaded) skipped.push(loaded.skipped);
      else {
        files.push(loaded.file);
        total += loaded.file.bytes;
      }
    }
  }
  return { root, source, files, skipped };
}
