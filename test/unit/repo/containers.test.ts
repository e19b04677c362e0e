import { spawn } from 'node:child_process';
import { chownSync, closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { parse } from 'yaml';
import { bwrapArgv, DEFAULT_LIMITS, DEFAULT_TMP_BYTES } from '../../../src/exec/bwrap-args.js';
import { sandboxSelfTest, type SandboxRunner } from '../../../src/exec/sandbox.js';
import type { SandboxPolicy } from '../../../src/exec/sandbox-policy.js';
import { REPO_ROOT } from '../../helpers/cli.js';

interface ComposeService {
  image?: string;
  env_file?: unknown;
  depends_on?: Record<string, Record<string, unknown>>;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  healthcheck?: { test?: string[] };
  security_opt?: string[];
  cap_drop?: string[];
  cap_add?: string[];
  privileged?: boolean;
  user?: string;
}

const composeText = readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
const compose = parse(composeText) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');

describe('docker-compose.yml', () => {
  it('has redis, app and a scalable worker', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'redis', 'worker']);
    expect(compose.services.worker!.command).toEqual(['worker']);
    // No fixed container_name or host port, or `--scale worker=N` would collide.
    expect(JSON.stringify(compose.services.worker)).not.toMatch(/container_name|ports/);
  });

  it('runs Redis with AOF persistence and no eviction on a volume', () => {
    const redis = compose.services.redis!;
    const cmd = redis.command!.join(' ');
    expect(cmd).toContain('--appendonly yes');
    expect(cmd).toContain('--maxmemory-policy noeviction');
    expect(redis.volumes?.some((v) => v.endsWith(':/data'))).toBe(true);
  });

  it('gives workers a workspace volume and points every service at the redis service', () => {
    expect(compose.services.worker!.volumes).toContain('workspaces:/var/lib/autofix');
    expect(compose.volumes).toHaveProperty('workspaces');
    for (const name of ['app', 'worker']) {
      expect(compose.services[name]!.environment?.REDIS_URL).toMatch(/@redis:6379$/);
    }
  });

  it('runs Redis with a password from the environment, which REDIS_URL and the healthcheck carry', () => {
    const redis = compose.services.redis!;
    const required = '${REDIS_PASSWORD:?set REDIS_PASSWORD in .env}';
    // `:?` makes compose refuse to start without the variable instead of using an empty password.
    expect(redis.command!.join(' ')).toContain(`--requirepass ${required}`);
    expect(redis.environment?.REDISCLI_AUTH).toBe(required);
    expect(redis.healthcheck?.test?.join(' ')).toMatch(/redis-cli ping/);
    for (const name of ['app', 'worker']) {
      const url = compose.services[name]!.environment?.REDIS_URL;
      expect(url).toBe(`redis://:${required}@redis:6379`);
    }
  });

  it('bakes no secret into the compose file', () => {
    for (const service of Object.values(compose.services)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        expect(key).not.toMatch(/PRIVATE_KEY|WEBHOOK_SECRET|OPENAI_API_KEY|ADMIN_PASSWORD|TOKEN/);
        // A password only ever arrives through a variable, never as a literal.
        const literal = String(value).replace(/\$\{[A-Z_]+(:\?[^}]*)?\}/g, '');
        expect(literal).not.toMatch(/:\/\/[^@/]*:[^@/]+@/);
      }
    }
  });
});

describe('docker-compose.yml for Docker Compose 2.15 (what the README says it needs)', () => {
  it('uses no syntax of a later Compose', () => {
    // `env_file` entries with `path`/`required` are 2.24+: only file names here.
    for (const [name, service] of Object.entries(compose.services)) {
      const files = service.env_file === undefined ? [] : [service.env_file].flat();
      for (const file of files)
        expect({ name, file: typeof file }).toEqual({ name, file: 'string' });
      // `depends_on` with `restart` (2.17) or `required` (2.20): `condition` only.
      for (const dep of Object.values(service.depends_on ?? {}))
        expect(Object.keys(dep)).toEqual(['condition']);
    }
    // `include` (2.20), `!reset`/`!override` (2.24); `develop` (2.22).
    expect(Object.keys(compose).sort()).toEqual(['services', 'volumes']);
    expect(composeText).not.toMatch(/!reset|!override|^\s+develop:/m);
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toContain(
      'Needs Docker Compose ≥ 2.15',
    );
  });

  it("keeps the setup page's credentials on a volume that app and workers read", () => {
    const envFile = /^\s+AUTOFIX_ENV_FILE=(\S+)/m.exec(dockerfile)?.[1];
    expect(envFile).toBe('/var/lib/autofix-config/.env');
    const folder = dirname(envFile!);
    // Made and handed to the image's user, so a new volume mounted there is writable by it.
    const user = /^USER (\w+)/m.exec(dockerfile)![1];
    expect(dockerfile).toMatch(new RegExp(`mkdir -p [^\\n]*${folder}`));
    expect(dockerfile).toMatch(new RegExp(`chown ${user}:${user} [^\\n]*${folder}`));
    expect(compose.volumes).toHaveProperty('autofix-config');
    expect(compose.services.app!.environment?.AUTOFIX_ENV_FILE).toBe(envFile);
    expect(compose.services.app!.volumes).toContain(`autofix-config:${folder}`);
    expect(compose.services.worker!.environment?.AUTOFIX_ENV_FILE).toBe(envFile);
    expect(compose.services.worker!.volumes).toContain(`autofix-config:${folder}:ro`);
  });
});

describe('Dockerfile', () => {
  it('is multi-stage on node:24-slim with git and bubblewrap, production deps, non-root, healthcheck', () => {
    expect(dockerfile.match(/^FROM node:24-slim/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/apt-get install[^\n]*git[^\n]*bubblewrap/);
    expect(dockerfile).toContain('npm ci --omit=dev');
    expect(dockerfile).toMatch(/^USER (?!root)\w+/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK[\s\S]*\/healthz/m);
  });

  it('builds only what it copies: the app sources and the fakes of the demo, no tests or benchmarks', () => {
    expect(dockerfile).not.toMatch(/^COPY (test|bench)\b/m);
    expect(dockerfile).toMatch(/^COPY src \.\/src$/m);
    expect(dockerfile).toMatch(/^COPY fakes \.\/fakes$/m);
    const app = JSON.parse(readFileSync(join(REPO_ROOT, 'tsconfig.app.json'), 'utf8')) as {
      include: string[];
    };
    expect(app.include).toEqual(['src/**/*.ts', 'fakes/**/*.ts']);
    expect(dockerfile).toContain('tsc -p tsconfig.app.json');
  });

  it('bakes no secret into the image', () => {
    expect(dockerfile).not.toMatch(
      /^(ENV|ARG)\b[^\n]*(PRIVATE_KEY|WEBHOOK_SECRET|OPENAI_API_KEY|TOKEN|PASSWORD)/m,
    );
    expect(dockerfile).not.toMatch(/COPY[^\n]*(\.env|\.pem)/);
    const ignore = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8');
    expect(ignore).toMatch(/^\.env$/m);
    expect(ignore).toMatch(/^\*\.pem$/m);
  });
});

describe('app.yml', () => {
  const manifest = parse(readFileSync(join(REPO_ROOT, 'app.yml'), 'utf8')) as {
    default_events: string[];
    default_permissions: Record<string, string>;
  };
  it('subscribes to the events the app handles and asks for no workflows permission', () => {
    expect(manifest.default_events.sort()).toEqual(
      [
        'issue_comment',
        'issues',
        'pull_request',
        'pull_request_review',
        'pull_request_review_comment',
        // The CI follow-up on the bot's PRs, and "Re-run" of its verification check run.
        'check_suite',
        'check_run',
        'workflow_run',
        // A revert of the bot's merged PR on the default branch (PR outcomes).
        'push',
      ].sort(),
    );
    expect(manifest.default_permissions).toEqual({
      contents: 'write',
      issues: 'write',
      pull_requests: 'write',
      // The "Autofix verification" check run (github/check-run.ts).
      checks: 'write',
      // The failing jobs' logs of the bot's PRs (CI follow-up); never more than read.
      actions: 'read',
      metadata: 'read',
    });
  });
});

// --- The sandbox in a container (issue #11) -------------------------------------------------

interface SeccompRule {
  names: string[];
  action: string;
  errnoRet?: number;
}
interface SeccompProfile {
  defaultAction: string;
  architectures?: string[];
  archMap?: { architecture: string; subArchitectures?: string[] }[];
  syscalls: SeccompRule[];
}

const PROFILE_PATH = 'deploy/seccomp-sandbox.json';
const profile = JSON.parse(readFileSync(join(REPO_ROOT, PROFILE_PATH), 'utf8')) as SeccompProfile;
const denied = profile.syscalls.flatMap((rule) => rule.names);

/** What bubblewrap calls to build the sandbox (src/exec/bwrap-args.ts, bubblewrap.c). */
const SANDBOX_NEEDS = [
  'clone',
  'clone3',
  'unshare',
  'mount',
  'umount2',
  'pivot_root',
  'sethostname',
  'prctl',
  'capset',
];
/** Reachable without privilege, of no use to a build, and the usual way into kernel exploits. */
const MUST_DENY = [
  'kexec_load',
  'init_module',
  'finit_module',
  'delete_module',
  'bpf',
  'perf_event_open',
  'userfaultfd',
  'io_uring_setup',
  'keyctl',
  'add_key',
  'request_key',
  'open_by_handle_at',
  'iopl',
  'ioperm',
  'swapon',
  'swapoff',
  'reboot',
  'acct',
  'settimeofday',
  'clock_settime',
];
/** Only in the x86 table: a profile names them, and runtimes skip them elsewhere. */
const X86_ONLY = new Set(['iopl', 'ioperm']);

/** This machine's system call table, from the kernel headers (linux-libc-dev). */
function syscallTable(): { table: Map<string, number>; audit: number; x32: boolean } {
  const arch = process.arch;
  const header =
    arch === 'x64'
      ? '/usr/include/x86_64-linux-gnu/asm/unistd_64.h'
      : arch === 'arm64'
        ? '/usr/include/asm-generic/unistd.h'
        : null;
  if (!header || !existsSync(header))
    throw new Error(`no system call table for ${arch}: install linux-libc-dev (${header})`);
  const table = new Map<string, number>();
  for (const m of readFileSync(header, 'utf8').matchAll(/^#define __NR_(\w+)\s+(\d+)\s*$/gm))
    table.set(m[1]!, Number(m[2]));
  // AUDIT_ARCH_X86_64 and AUDIT_ARCH_AARCH64 (linux/audit.h).
  return { table, audit: arch === 'x64' ? 0xc000003e : 0xc00000b7, x32: arch === 'x64' };
}

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const ENOSYS = 38;

/**
 * The profile as the kernel runs it: a classic BPF program (what libseccomp hands the kernel for
 * a runtime), for this machine's native table only, like the profile's `archMap`. Foreign tables
 * (32-bit, x32) are refused, denied calls answer their `errnoRet`, the rest is allowed.
 */
function compileProfile(p: SeccompProfile): Buffer {
  if (p.defaultAction !== 'SCMP_ACT_ALLOW') throw new Error('only allow-by-default profiles');
  const { table, audit, x32 } = syscallTable();
  const LD_W_ABS = 0x20;
  const JEQ_K = 0x15;
  const JGE_K = 0x35;
  const RET_K = 0x06;
  const refuse = SECCOMP_RET_ERRNO | ENOSYS;
  const prog: [number, number, number, number][] = [
    [LD_W_ABS, 0, 0, 4], // seccomp_data.arch
    [JEQ_K, 1, 0, audit],
    [RET_K, 0, 0, refuse],
    [LD_W_ABS, 0, 0, 0], // seccomp_data.nr
    ...(x32
      ? ([
          [JGE_K, 0, 1, 0x40000000], // __X32_SYSCALL_BIT
          [RET_K, 0, 0, refuse],
        ] as [number, number, number, number][])
      : []),
  ];
  for (const rule of p.syscalls) {
    if (rule.action !== 'SCMP_ACT_ERRNO') throw new Error(`unexpected action ${rule.action}`);
    for (const name of rule.names) {
      const nr = table.get(name);
      if (nr === undefined) continue; // not in this table (iopl on arm64): nothing to refuse
      prog.push([JEQ_K, 0, 1, nr], [RET_K, 0, 0, SECCOMP_RET_ERRNO | (rule.errnoRet ?? 1)]);
    }
  }
  prog.push([RET_K, 0, 0, SECCOMP_RET_ALLOW]);
  const out = Buffer.alloc(prog.length * 8);
  prog.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}

describe(PROFILE_PATH, () => {
  it('allows by default and refuses a deny list with EPERM, on the native 64-bit table only', () => {
    expect(profile.defaultAction).toBe('SCMP_ACT_ALLOW');
    for (const rule of profile.syscalls) {
      expect(rule).toMatchObject({ action: 'SCMP_ACT_ERRNO', errnoRet: 1 });
    }
    // archMap, not architectures: Docker picks the host's entry; no 32-bit or x32 table.
    expect(profile.architectures).toBeUndefined();
    expect(profile.archMap?.map((a) => a.architecture).sort()).toEqual([
      'SCMP_ARCH_AARCH64',
      'SCMP_ARCH_X86_64',
    ]);
    for (const entry of profile.archMap ?? []) expect(entry.subArchitectures ?? []).toEqual([]);
    expect(new Set(denied).size).toBe(denied.length);
  });

  it('leaves bubblewrap the namespace calls and refuses what a build has no use for', () => {
    for (const name of SANDBOX_NEEDS) expect(denied).not.toContain(name);
    for (const name of MUST_DENY) expect(denied).toContain(name);
  });

  it("names only system calls of this machine's table", () => {
    const { table } = syscallTable();
    const unknown = denied.filter((name) => !table.has(name));
    const expected = process.arch === 'x64' ? [] : denied.filter((n) => X86_ONLY.has(n));
    expect(unknown).toEqual(expected);
    for (const name of SANDBOX_NEEDS) expect(table.has(name)).toBe(true);
  });
});

/**
 * The worker as the image runs it: not root (here uid 65534 when the test runs as root), under
 * the profile compiled to BPF and installed by bubblewrap's `--seccomp` before anything of the
 * sandbox runs, optionally with /proc masked the way Docker masks it by default. Inside, the real
 * command line of `bwrapArgv` for a non-root worker.
 */
const isRoot = process.getuid?.() === 0;
const CONTAINER_USER = { uid: 65534, gid: 65534 };

function dockerProcMasks(): string[] {
  const args: string[] = [];
  for (const file of ['/proc/kcore', '/proc/keys', '/proc/timer_list', '/proc/sched_debug'])
    if (existsSync(file)) args.push('--ro-bind', '/dev/null', file);
  for (const dir of ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys'])
    if (existsSync(dir)) args.push('--ro-bind', dir, dir);
  return args;
}

type RunResult = Awaited<ReturnType<SandboxRunner>>;

function inContainer(options: { seccompFile?: string; maskedProc?: boolean }): SandboxRunner {
  return (argv, worktree) => {
    // Only ever a fresh scratch directory (ours, or the self-test's) goes to the container user.
    if (isRoot) {
      expect(dirname(worktree)).toBe(tmpdir());
      expect(basename(worktree)).toMatch(/^autofix-(sandbox-test|container-test)-/);
      chownSync(worktree, CONTAINER_USER.uid, CONTAINER_USER.gid);
    }
    const sandbox = bwrapArgv(
      'bwrap',
      {
        writable: [worktree],
        hidden: [],
        readOnly: [],
        cwd: worktree,
        limits: DEFAULT_LIMITS,
        tmpBytes: DEFAULT_TMP_BYTES,
      },
      argv,
    );
    const container = [
      'bwrap',
      ...(isRoot ? [] : ['--unshare-user']),
      '--dev-bind',
      '/',
      '/',
      ...(options.maskedProc ? dockerProcMasks() : []),
      ...(options.seccompFile ? ['--seccomp', '3'] : []),
      '--',
      ...(isRoot
        ? [
            'setpriv',
            `--reuid=${CONTAINER_USER.uid}`,
            `--regid=${CONTAINER_USER.gid}`,
            '--clear-groups',
            '--inh-caps=-all',
            '--bounding-set=-all',
            '--',
          ]
        : []),
      ...sandbox,
    ];
    const fd = options.seccompFile ? openSync(options.seccompFile, 'r') : undefined;
    return new Promise<RunResult>((resolve, reject) => {
      const child = spawn(container[0]!, container.slice(1), {
        stdio: ['ignore', 'pipe', 'pipe', ...(fd === undefined ? [] : [fd])],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        timeout: 30_000,
      });
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        if (fd !== undefined) closeSync(fd);
        resolve({ exit_code: code, stdout, stderr });
      });
    });
  };
}

/** The container's worker policy: no `runAs`, as the image's user is not root. */
const WORKER_POLICY: SandboxPolicy = { mode: 'bwrap', trustedHosts: [], deny: [], hidden: [] };

/** Calls each system call with harmless arguments and prints `name errno` (0 = it worked). */
const PROBE = String.raw`for my $spec (@ARGV) {
  my ($name, $nr, @args) = split /[:,]/, $spec;
  my $r = syscall($nr, map { $_ + 0 } @args);
  print "$name ", ($r == -1 ? $! + 0 : 0), "\n";
}`;

describe('the sandbox in a container: real bubblewrap under the profile', () => {
  let scratch: string;
  let seccompFile: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'autofix-container-scratch-'));
    seccompFile = join(scratch, 'profile.bpf');
    writeFileSync(seccompFile, compileProfile(profile));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it("passes the worker's own sandbox self-test with the profile installed and /proc unmasked", async () => {
    await expect(
      sandboxSelfTest(WORKER_POLICY, inContainer({ seccompFile })),
    ).resolves.toBeUndefined();
  });

  it('refuses what the profile denies inside the sandbox, where the same calls answer without it', async () => {
    const { table } = syscallTable();
    const call = (name: string, ...args: number[]): string =>
      `${name}:${[table.get(name)!, ...args].join(',')}`;
    // Each answers something other than EPERM without the profile: a keyring id, EFAULT, a
    // user-mode userfaultfd (UFFD_USER_MODE_ONLY), EBADF.
    const probes = [
      call('keyctl', 0, -3, 0), // KEYCTL_GET_KEYRING_ID of the session keyring
      call('io_uring_setup', 0, 0),
      call('perf_event_open', 0, 0, -1, -1, 0),
      call('userfaultfd', 1),
      call('setns', -1, 0),
    ];
    const run = async (options: { seccompFile?: string }): Promise<Record<string, number>> => {
      const worktree = await mkdtemp(join(tmpdir(), 'autofix-container-test-'));
      try {
        const result = await inContainer(options)(['perl', '-e', PROBE, ...probes], worktree);
        expect(result).toMatchObject({ exit_code: 0 });
        return Object.fromEntries(
          result.stdout
            .trim()
            .split('\n')
            .map((line) => line.split(' '))
            .map(([name, errno]) => [name!, Number(errno)]),
        );
      } finally {
        await rm(worktree, { recursive: true, force: true });
      }
    };
    const EPERM = 1;
    const names = ['keyctl', 'io_uring_setup', 'perf_event_open', 'userfaultfd', 'setns'];
    const withProfile = await run({ seccompFile });
    const without = await run({});
    for (const name of names) {
      expect([name, withProfile[name]]).toEqual([name, EPERM]);
      expect([name, without[name]]).not.toEqual([name, EPERM]);
    }
  });

  it("fails the self-test under Docker's masked /proc, with the fix in the message", async () => {
    // Why compose sets systempaths=unconfined: with the masks the kernel refuses a new procfs.
    await expect(
      sandboxSelfTest(WORKER_POLICY, inContainer({ seccompFile, maskedProc: true })),
    ).rejects.toMatchObject({
      code: 'SANDBOX_UNAVAILABLE',
      message: expect.stringMatching(/Can't mount proc[\s\S]*systempaths=unconfined/) as unknown,
    });
  });
});

describe('docker-compose.yml: the sandbox settings', () => {
  const runsWorkers = (service: ComposeService): boolean => {
    const command = service.command ?? [];
    return command[0] === 'worker' || (command[0] === 'serve' && !command.includes('--no-workers'));
  };

  it('gives every service that runs repository code the profile, an unmasked /proc and no AppArmor mount ban', () => {
    const workers = Object.entries(compose.services).filter(([, s]) => runsWorkers(s));
    expect(workers.map(([name]) => name)).toEqual(['worker']);
    for (const [, service] of workers) {
      expect(service.security_opt).toEqual(
        expect.arrayContaining([
          `seccomp=${PROFILE_PATH}`,
          'systempaths=unconfined',
          'apparmor=unconfined',
          'no-new-privileges:true',
        ]),
      );
      expect(service.security_opt).not.toContain('seccomp=unconfined');
    }
    // compose reads the profile relative to the compose file.
    expect(existsSync(join(REPO_ROOT, PROFILE_PATH))).toBe(true);
  });

  it('keeps the webhook server on Docker defaults: it runs no repository code', () => {
    const app = compose.services.app!;
    expect(runsWorkers(app)).toBe(false);
    expect(app.security_opt).toEqual(['no-new-privileges:true']);
  });

  it('never gives a container privilege: no capabilities, not root, not privileged', () => {
    // An unmasked /proc is safe only for a non-root user (root could write kernel settings).
    for (const name of ['app', 'worker']) {
      const service = compose.services[name]!;
      expect(service.cap_drop).toEqual(['ALL']);
      expect(service.cap_add).toBeUndefined();
      expect(service.privileged).toBeUndefined();
      expect(service.user).toBeUndefined(); // the image's non-root USER
    }
  });
});

describe('Dockerfile: the sandbox tools', () => {
  it('installs bubblewrap, util-linux and coreutils and fails the build when a tool is missing', () => {
    expect(dockerfile).toMatch(
      /apt-get install[^\n]*\bbubblewrap\b[^\n]*\butil-linux\b[^\n]*\bcoreutils\b/,
    );
    expect(dockerfile).toMatch(/for tool in git bwrap prlimit setpriv chown; do/);
    expect(dockerfile).toContain('grep -q -- --disable-userns');
  });
});

/** The Dockerfile's stages by name, each its own lines (continuations joined). */
function dockerStages(text: string): Map<string, { from: string; body: string }> {
  const stages = new Map<string, { from: string; body: string }>();
  const joined = text.replace(/\\\n/g, ' ');
  for (const part of joined.split(/^(?=FROM )/m).filter((p) => p.startsWith('FROM '))) {
    const m = /^FROM (\S+)(?: AS (\S+))?/.exec(part)!;
    stages.set(m[2] ?? m[1]!, { from: m[1]!, body: part });
  }
  return stages;
}

describe('Dockerfile: the worker-full target (issue #38)', () => {
  const stages = dockerStages(dockerfile);
  const full = stages.get('worker-full')?.body ?? '';
  const arg = (name: string): string | undefined =>
    new RegExp(`^ARG ${name}=(\\S*)$`, 'm').exec(full)?.[1];

  it('builds on the runtime image, and `docker build .` still gives the small one', () => {
    expect(stages.get('worker-full')?.from).toBe('runtime');
    // The last stage is what an untargeted build produces: the runtime as it is.
    const last = [...stages.entries()].at(-1)!;
    expect(last[1].from).toBe('runtime');
    expect(
      last[1].body
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('#')),
    ).toHaveLength(1);
    const runtime = stages
      .get('runtime')!
      .body.split('\n')
      .filter((l) => !l.startsWith('#'));
    expect(runtime.join('\n')).not.toMatch(/python3|golang|openjdk|maven|gradle/);
  });

  it('installs Python 3 with venv and pip, and a JDK, from Debian', () => {
    expect(full).toMatch(/apt-get install [^\n]*\bpython3 python3-venv python3-pip\b[^\n]*"\$jdk"/);
    expect(full).toMatch(/bookworm\) jdk=openjdk-17-jdk-headless/);
    expect(full).toMatch(/trixie\) jdk=openjdk-21-jdk-headless/);
  });

  it('downloads Go, Maven and Gradle at pinned versions and checks each against its checksum first', () => {
    expect(arg('GO_VERSION')).toMatch(/^1\.\d+\.\d+$/);
    expect(arg('MAVEN_VERSION')).toMatch(/^3\.9\.\d+$/); // maven.repo.local.tail: ≥ 3.9
    expect(arg('GRADLE_VERSION')).toMatch(/^\d+\.\d+(\.\d+)?$/);
    for (const name of ['GO_SHA256_AMD64', 'GO_SHA256_ARM64', 'GRADLE_SHA256'])
      expect([name, arg(name)]).toEqual([name, expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(arg('MAVEN_SHA512')).toMatch(/^[0-9a-f]{128}$/);
    const downloads: [RegExp, RegExp, RegExp][] = [
      [/go\.dev\/dl\/go\$\{GO_VERSION\}\.linux-\$\{arch\}/, /sha256sum -c/, /tar -C \/usr\/local/],
      [
        /apache-maven-\$\{MAVEN_VERSION\}-bin\.tar\.gz/,
        /"\$\{MAVEN_SHA512\} [^"]*" \| sha512sum -c/,
        /tar -C \/opt/,
      ],
      [
        /gradle-\$\{GRADLE_VERSION\}-bin\.zip/,
        /"\$\{GRADLE_SHA256\} [^"]*" \| sha256sum -c/,
        /unzip/,
      ],
    ];
    for (const [url, check, unpack] of downloads) {
      const step = full.split(/^RUN /m).find((r) => url.test(r)) ?? '';
      expect(step).toMatch(/curl -fsSLo/);
      // The check comes before anything is unpacked, and a failed check fails the step.
      expect(step.search(check)).toBeGreaterThan(step.search(url));
      expect(step.search(unpack)).toBeGreaterThan(step.search(check));
      expect(step).not.toMatch(/\|\|\s*true/);
    }
    expect(full).toMatch(/^SHELL \["\/bin\/bash", "-o", "pipefail", "-c"\]$/m);
  });

  it('puts every toolchain on PATH, checks each at build time, and runs as the unprivileged user', () => {
    expect(full).toMatch(
      /^ENV PATH=\/usr\/local\/go\/bin:\/opt\/maven\/bin:\/opt\/gradle\/bin:\$PATH/m,
    );
    expect(full).toMatch(/GOTOOLCHAIN=local/);
    expect(full).toMatch(/for tool in python3 pip3 go java javac mvn gradle; do/);
    expect(full).toMatch(/python3 -m venv/);
    const users = [...full.matchAll(/^USER (\S+)/gm)].map((m) => m[1]);
    expect(users.at(-1)).toBe(/^USER (\w+)/m.exec(dockerfile)![1]);
    expect(users.at(-1)).not.toBe('root');
  });

  it('is what docker-compose builds for the workers when asked, the small image otherwise', () => {
    const build = compose.services.worker!.build as { context: string; target: string };
    expect(build).toEqual({ context: '.', target: '${AUTOFIX_WORKER_TARGET:-default}' });
    expect(stages.has('default')).toBe(true);
    // The webhook server runs no repository code: never the large image.
    expect(compose.services.app!.build).toBe('.');
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toMatch(
      /### Worker images[\s\S]*--target worker-full[\s\S]*AUTOFIX_WORKER_TARGET=worker-full/,
    );
  });
});

describe('deploy/kubernetes-worker.yaml', () => {
  const deployment = parse(
    readFileSync(join(REPO_ROOT, 'deploy/kubernetes-worker.yaml'), 'utf8'),
  ) as {
    spec: {
      template: {
        spec: {
          hostUsers?: boolean;
          securityContext?: Record<string, unknown>;
          containers: {
            args: string[];
            securityContext: Record<string, unknown>;
            livenessProbe?: { httpGet: { path: string } };
            readinessProbe?: { httpGet: { path: string } };
          }[];
        };
      };
    };
  };
  const pod = deployment.spec.template.spec;

  it('runs the worker with the seccomp profile, an unmasked /proc in a user namespace, and no privilege', () => {
    expect(pod.hostUsers).toBe(false); // procMount: Unmasked requires it
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: expect.any(Number) as unknown,
      seccompProfile: { type: 'Localhost', localhostProfile: 'autofix-sandbox.json' },
    });
    const [worker] = pod.containers;
    expect(worker!.args).toEqual(['worker', '--metrics-port', '9464']);
    // Restart on /healthz only; a Redis outage (/readyz 503) takes the pod out of rotation.
    expect(worker!.livenessProbe?.httpGet.path).toBe('/healthz');
    expect(worker!.readinessProbe?.httpGet.path).toBe('/readyz');
    expect(worker!.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      privileged: false,
      capabilities: { drop: ['ALL'] },
      procMount: 'Unmasked',
      appArmorProfile: { type: 'Localhost', localhostProfile: 'autofix-sandbox' },
    });
    expect(JSON.stringify(deployment)).not.toMatch(/SYS_ADMIN|"add"/);
  });
});
