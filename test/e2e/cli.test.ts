import { runCli } from '../helpers/cli.js';

describe('autofix CLI', () => {
  it('lists every subcommand in --help', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const name of ['serve', 'worker', 'run', 'apply-patch', 'code-commit', 'work-order']) {
      expect(r.stdout).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'));
    }
  });

  it('exits 2 with usage on an unknown command', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });

  it('exits 2 when a required option is missing', async () => {
    const r = await runCli(['work-order', '--repo', '.']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--work-order');
  });

  it('prints the tools the code agent is offered, as the request sends them', async () => {
    const r = await runCli(['tools', '--json']);
    expect(r.code).toBe(0);
    const specs = JSON.parse(r.stdout) as { name: string; parameters: { type: string } }[];
    expect(specs.map((s) => s.name)).toContain('propose_edit');
    for (const s of specs) expect(s.parameters.type).toBe('object');
  });
});
