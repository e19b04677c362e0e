/** Runs wrk with the signing script and reads the result line the script prints. */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { wrkScript } from './wrk-script.js';

export interface WrkResult {
  requests: number;
  durationUs: number;
  ok: number;
  non2xx: number;
  socketErrors: number;
  p50Ms: number;
  p99Ms: number;
  rps: number;
}

export async function runWrk(options: {
  url: string;
  connections: number;
  seconds: number;
  dir: string;
  secret: string;
  bodyPrefix: string;
  bodySuffix: string;
  runTag: string;
  issueBase: number;
}): Promise<WrkResult> {
  const script = join(options.dir, `${options.runTag}.lua`);
  const { pathname } = new URL(options.url);
  await writeFile(script, wrkScript({ ...options, path: pathname }));
  const threads = Math.min(2, options.connections);
  const args = [
    '-t',
    String(threads),
    '-c',
    String(options.connections),
    '-d',
    `${options.seconds}s`,
  ];
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', [...args, '--timeout', '10s', '-s', script, options.url]);
    let text = '';
    child.stdout.on('data', (b: Buffer) => (text += b.toString()));
    child.stderr.on('data', (b: Buffer) => (text += b.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`)),
    );
  });
  const line = /WRK_RESULT (\{.*\})/.exec(out)?.[1];
  if (!line) throw new Error(`wrk printed no result:\n${out}`);
  const r = JSON.parse(line) as Record<string, number>;
  const durationUs = r.duration_us ?? 1;
  return {
    requests: r.requests ?? 0,
    durationUs,
    ok: r.ok ?? 0,
    non2xx: r.non2xx ?? 0,
    socketErrors: r.socket_errors ?? 0,
    p50Ms: (r.p50_us ?? 0) / 1000,
    p99Ms: (r.p99_us ?? 0) / 1000,
    rps: ((r.requests ?? 0) * 1e6) / durationUs,
  };
}
