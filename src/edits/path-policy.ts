/**
 * Which repository paths the bot may write (docs/SECURITY.md, rule 1). Patterns are minimatch globs
 * matched against the repository-relative path; a pattern naming a directory covers everything
 * below it.
 */
export interface PathPolicy {
  /** Globs the bot must never write or delete. */
  protectedPaths: string[];
  /** When non-empty, the bot may write only paths matching one of these. */
  allowedPaths: string[];
  /** Also protect every path `git check-ignore` reports. */
  protectIgnored: boolean;
}

/** Protected for every repository: git internals, CI, secrets, lockfiles, vendored code. */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  '.git/**',
  '**/.git/**',
  '.github/workflows/**',
  // The bot's own configuration and prompts: a change there would decide what later runs execute.
  '.github/autofix.yml',
  '.github/autofix/**',
  '.gitignore',
  '**/.gitignore',
  '**/package-lock.json',
  '**/npm-shrinkwrap.json',
  '**/yarn.lock',
  '**/pnpm-lock.yaml',
  '**/bun.lock',
  '**/bun.lockb',
  '**/Cargo.lock',
  '**/Gemfile.lock',
  '**/poetry.lock',
  '**/Pipfile.lock',
  '**/composer.lock',
  '**/go.sum',
  '**/uv.lock',
  '**/*.lock',
  '**/.env*',
  '**/*.pem',
  '**/*.key',
  '**/config/secrets/**',
  '**/deployment/**',
  'node_modules/**',
  '**/node_modules/**',
];

/** Also protected in code-commit mode: the supervisor's own files. */
export const CODE_COMMIT_PROTECTED_PATHS: readonly string[] = [
  'build.sh',
  'codeRollup.sh',
  'LLMInstructions.md',
  '**/UserSpecification.md',
  'agent-config/**',
  'target/**',
];

export interface PathPolicyOptions {
  /** The repo config's `protected_paths`. */
  protectedPaths?: readonly string[];
  /** The repo config's `allowed_paths`. */
  allowedPaths?: readonly string[];
  /** `autofix code-commit`: protect the supervisor's files too. */
  codeCommitMode?: boolean;
}

export function pathPolicy(options: PathPolicyOptions = {}): PathPolicy {
  return {
    protectedPaths: [
      ...DEFAULT_PROTECTED_PATHS,
      ...(options.codeCommitMode ? CODE_COMMIT_PROTECTED_PATHS : []),
      ...(options.protectedPaths ?? []),
    ],
    allowedPaths: [...(options.allowedPaths ?? [])],
    protectIgnored: true,
  };
}

/** Exactly what the bot enforces when the repository configures nothing. */
export const DEFAULT_PATH_POLICY: PathPolicy = pathPolicy();
