/**
 * The bridge that runs inside the sandbox as the setup command's parent. The sandbox has no
 * network (`--unshare-net`) except its own loopback, so the bridge listens on 127.0.0.1:<port>
 * there and carries each connection to the egress proxy's Unix socket, which is bind-mounted
 * in. It listens before it starts the command (the command's first request finds it ready),
 * passes signals on, and exits the way the command did.
 *
 * Plain CommonJS for the plain `node` binary, passed with `-e`: no TypeScript, no dependencies,
 * and no file of ours to read, since the app's install directory may be hidden in the sandbox.
 */
export const BRIDGE_SOURCE = String.raw`'use strict';
const net = require('net');
const { spawn } = require('child_process');
const { constants } = require('os');
const [socketPath, portText, ...argv] = process.argv.slice(1);
const port = Number(portText);
function fail(code, message) {
  process.stderr.write('autofix egress bridge: ' + message + '\n');
  process.exit(code);
}
if (!socketPath || !/^\d+$/.test(portText || '') || port < 1 || port > 65535 || argv.length === 0) {
  fail(125, 'usage: <unix socket> <port> <command> [args...]');
}
const sockets = new Set();
function track(socket) {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  socket.on('error', () => socket.destroy());
  return socket;
}
const server = net.createServer({ allowHalfOpen: true }, (client) => {
  track(client);
  const upstream = track(net.connect({ path: socketPath, allowHalfOpen: true }));
  client.pipe(upstream);
  upstream.pipe(client);
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
});
server.on('error', (err) => fail(125, 'cannot listen on 127.0.0.1:' + port + ': ' + err.message));
server.listen({ host: '127.0.0.1', port, exclusive: true }, () => {
  // Handlers first, then the command: a signal that arrives while it is being started is passed
  // on once it runs, never lost with the bridge (which would orphan the command).
  let child;
  let pending;
  const forward = (signal) => {
    if (!child) { pending = signal; return; }
    try { child.kill(signal); } catch (_) { /* already gone */ }
  };
  const forwarded = ['SIGTERM', 'SIGINT', 'SIGHUP'];
  for (const signal of forwarded) process.on(signal, forward);
  child = spawn(argv[0], argv.slice(1), { stdio: 'inherit' });
  if (pending) forward(pending);
  child.on('error', (err) => {
    const code = err.code === 'ENOENT' ? 127 : 126; // what a shell reports
    fail(code, 'cannot run ' + argv[0] + ': ' + err.message);
  });
  child.on('exit', (code, signal) => {
    server.close();
    for (const socket of sockets) socket.destroy();
    if (code !== null) process.exit(code);
    // Die of the same signal, so our parent sees what the command saw; if that signal does not
    // end a node process (SIGPIPE is ignored), fall back to the shell's 128 + n.
    for (const s of forwarded) process.removeListener(s, forward);
    process.exitCode = 128 + (constants.signals[signal] || 0);
    try { process.kill(process.pid, signal); } catch (_) { /* fall through */ }
    setTimeout(() => process.exit(), 100);
  });
});
`;

/**
 * The argv that runs `argv` behind the bridge: `node --input-type=commonjs -e <source> --
 * <socketPath> <port> <argv…>`. `nodePath` must exist inside the sandbox.
 */
export function bridgeArgv(
  nodePath: string,
  socketPath: string,
  port: number,
  argv: readonly string[],
): string[] {
  if (argv.length === 0) throw new Error('bridgeArgv: empty command');
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`bridgeArgv: port must be an integer from 1 to 65535, got ${port}`);
  if (!socketPath.startsWith('/')) throw new Error(`bridgeArgv: socket path must be absolute`);
  return [
    nodePath,
    '--input-type=commonjs',
    '-e',
    BRIDGE_SOURCE,
    '--',
    socketPath,
    String(port),
    ...argv,
  ];
}

/** The port the bridge listens on inside the sandbox: any is free there; this one is familiar. */
export const DEFAULT_BRIDGE_PORT = 3128;
