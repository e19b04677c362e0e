/** One child process to its end; rejects with its stderr when it fails (a bench never ignores that). */
import { spawn } from 'node:child_process';

export function runProcess(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(new Error(`${file} exited with ${code ?? signal}: ${stderr.trim().slice(-2000)}`));
    });
  });
}
