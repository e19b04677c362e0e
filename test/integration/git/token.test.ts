import { execFileSync } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLogger } from '../../../src/logger.js';
import { prepareBranch } from '../../../src/git/branch.js';
import { commitChanges } from '../../../src/git/commit.js';
import { DEFAULT_BOT_IDENTITY } from '../../../src/git/identity.js';
import { pushBranch } from './helpers.js';
import { rollbackWorkspace } from '../../../src/git/rollback.js';
import { runGit } from '../../../src/git/run-git.js';
import { closeWorkspace, openWorkspace } from '../../../src/git/workspace.js';
import { filesContaining, makeRemote, removeDir, tempDir } from './helpers.js';

const TOKEN = 'ghs_SENTINELtoken0123456789abcdefXYZ';
const HEADER_FORM = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');

describe('installation token', () => {
  let root: string;

  beforeEach(async () => {
    root = await tempDir();
  });
  afterEach(async () => {
    await removeDir(root);
  });

  it('is sent to the remote as an HTTP header but never appears in an error', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      res.statusCode = 403;
      res.end('forbidden');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const err = (await openWorkspace({
        workdir: join(root, 'work'),
        repo: 'acme/demo',
        remoteUrl: `http://127.0.0.1:${port}/acme/demo.git`,
        baseBranch: 'main',
        token: TOKEN,
      }).catch((e: unknown) => e)) as Error & { code: string; details: unknown };
      expect(seen[0]?.authorization).toBe(`Basic ${HEADER_FORM}`);
      expect(err.code).toBe('PERMISSION_DENIED');
      const shown = err.message + JSON.stringify(err.details);
      expect(shown).not.toContain(TOKEN);
      expect(shown).not.toContain(HEADER_FORM);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('is redacted from what git prints', async () => {
    const r = await runGit(['config', '--get', 'http.extraHeader'], { cwd: root, token: TOKEN });
    expect(r.stdout.trim()).toBe(`Authorization: Basic ****${HEADER_FORM.slice(-2)}`);
  });

  it('leaves data that merely looks like a token alone in git output', async () => {
    const name = 'refs/heads/ghp_abcdefghijklmnopqrstuvwxyz0123';
    const r = await runGit(['check-ref-format', '--normalize', name], { cwd: root, token: TOKEN });
    expect(r.stdout.trim()).toBe(name);
  });

  it('is never persisted: not in the mirror, the worktree or the logs of a whole job', async () => {
    const remote = await makeRemote(root);
    let logs = '';
    const logger = createLogger({
      level: 'debug',
      destination: new Writable({
        write(chunk: Buffer, _enc, done) {
          logs += chunk.toString();
          done();
        },
      }),
    });
    const ws = await openWorkspace({
      workdir: join(root, 'work'),
      repo: 'acme/demo',
      remoteUrl: remote.url,
      baseBranch: 'main',
      token: TOKEN,
      logger,
    });
    await prepareBranch(ws, {
      name: 'autofix/fix/1-token-test',
      issue: 1,
      identity: DEFAULT_BOT_IDENTITY,
    });
    await writeFile(join(ws.worktree, 'README.md'), '# changed\n');
    await commitChanges(ws, { message: 'docs(readme): change the readme heading\n\nFixes #1\n' });
    await pushBranch(ws, { token: TOKEN });
    const rollback = await rollbackWorkspace(ws, { token: TOKEN });
    expect(rollback.problems).toEqual([]);

    const everything = [ws.mirrorDir, ws.jobDir, remote.dir];
    for (const needle of [TOKEN, HEADER_FORM]) {
      for (const dir of everything) expect(await filesContaining(dir, needle)).toEqual([]);
      // Objects are compressed on disk: look at their content too.
      const objects = execFileSync('git', ['cat-file', '--batch-all-objects', '--batch'], {
        cwd: ws.mirrorDir,
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(objects.includes(needle)).toBe(false);
      expect(logs).not.toContain(needle);
    }
    expect(logs).toContain('workspace ready');
    const config = execFileSync('git', ['config', '--list', '--show-origin'], { cwd: ws.worktree });
    expect(config.toString()).not.toMatch(/extraheader|x-access-token/i);
    await closeWorkspace(ws);
  });
});
