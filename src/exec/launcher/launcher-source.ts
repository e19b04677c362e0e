/**
 * The launcher: a small Node process that starts our own short commands (git) for the worker.
 * Starting a process from the worker costs a `fork` of the whole worker (Node's `spawn`), which
 * grows with its memory: about 5 ms at 230 MB, on the event loop, for each of the ~80 git
 * commands of a run (bench:webhooks). The launcher's fork costs a fraction of that, off the
 * worker's event loop (launcher.ts).
 *
 * One request per IPC message `{ id, file, args, cwd, env, input, timeoutMs }`; one answer per
 * request `{ id, code, signal, timedOut, stdout, stderr }` (Buffers) or `{ id, error }` when the
 * command could not start. It exits when the worker goes (its IPC channel closes), not on a
 * signal to the process group (the commands themselves get that).
 *
 * Plain CommonJS for the plain `node` binary, passed with `-e`: no TypeScript, no dependencies,
 * no file of ours to read. Its first words say what it is in `ps`.
 */
export const LAUNCHER_SOURCE = String.raw`/* autofix process launcher: starts git for its parent */ 'use strict';
const { spawn } = require('child_process');
process.on('disconnect', () => process.exit(0));
// Ctrl-C or a stop sent to the whole process group is the worker's to handle (it may still run
// git while it stops): the launcher goes when the worker does.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => undefined);
process.on('message', (req) => {
  let done = false;
  let timer;
  const answer = (message) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    process.send(Object.assign({ id: req.id }, message));
  };
  let child;
  try {
    child = spawn(req.file, req.args, { cwd: req.cwd, env: req.env, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (err) {
    answer({ error: String((err && err.message) || err) });
    return;
  }
  let timedOut = false;
  let ended;
  const out = [];
  const err = [];
  const result = (code, signal) =>
    ({ code, signal, timedOut, stdout: Buffer.concat(out), stderr: Buffer.concat(err) });
  // At the deadline the command is killed and answered once it is gone: a process it started
  // that still holds its output open must not hold the answer too.
  timer = setTimeout(() => {
    timedOut = true;
    if (ended) return answer(result(ended.code, ended.signal));
    child.once('exit', (code, signal) => answer(result(code, signal)));
    child.kill('SIGKILL');
  }, req.timeoutMs);
  child.stdout.on('data', (b) => out.push(b));
  child.stderr.on('data', (b) => err.push(b));
  child.on('error', (e) => answer({ error: e.message }));
  child.on('exit', (code, signal) => (ended = { code, signal }));
  child.on('close', (code, signal) => answer(result(code, signal)));
  child.stdin.on('error', () => undefined); // the command may exit before reading all input
  child.stdin.end(req.input || '');
});
`;
