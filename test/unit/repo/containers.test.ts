import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../helpers/cli.js';

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  healthcheck?: { test?: string[] };
}

const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8')) as {
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

describe('Dockerfile', () => {
  it('is multi-stage on node:24-slim with git and bubblewrap, production deps, non-root, healthcheck', () => {
    expect(dockerfile.match(/^FROM node:24-slim/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/apt-get install[^\n]*git[^\n]*bubblewrap/);
    expect(dockerfile).toContain('npm ci --omit=dev');
    expect(dockerfile).toMatch(/^USER (?!root)\w+/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK[\s\S]*\/healthz/m);
  });

  it('builds only what it copies: the app sources, no tests or benchmarks', () => {
    expect(dockerfile).not.toMatch(/^COPY (test|bench)\b/m);
    const app = JSON.parse(readFileSync(join(REPO_ROOT, 'tsconfig.app.json'), 'utf8')) as {
      include: string[];
    };
    expect(app.include).toEqual(['src/**/*.ts']);
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
      ].sort(),
    );
    expect(manifest.default_permissions).toEqual({
      contents: 'write',
      issues: 'write',
      pull_requests: 'write',
      checks: 'write',
      metadata: 'read',
    });
  });
});
