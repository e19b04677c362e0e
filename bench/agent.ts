/**
 * `npm run bench:agent`: does the tool loop reach the file a fix needs when the ranked view
 * missed it? For each instance of `bench/context/instances.jsonl` (real issues and the files their
 * upstream fix changed: Multi-SWE-bench, SWE-bench dev, MULocBench), the repository is checked out
 * at the fix's parent (`context/checkout.ts`), ranked as the code stage ranks it, and then explored
 * through the real tool loop (`runToolLoop`, the real tools over the real checkout) by a scripted
 * tool-using model over HTTP (`agent/scripted-explorer.ts`: it knows only the issue and what the
 * tools answer). One-shot sees the first five ranked files and nothing else; the loop starts from
 * them and may look further.
 *
 * Reported per dataset: tasks whose gold file is outside the first five, the share of those the
 * loop reaches within 4 and 8 tool calls and, beside it, the tools' reference (`agent/lookup-ceiling.ts`:
 * the best any choice of the issue's lookups reaches), tool calls, tokens and wall time per task, and the
 * loop's own overhead per turn (everything but the model: the HTTP round trip, the tools, the
 * loop). Last line:
 * `SUMMARY agent reached_at4=… reached_at8=… ceiling_at4=… ceiling_at8=… outside_view=… calls_p50=… tokens_p50=… turn_overhead_ms_p50=…`.
 * Flags: --reads-per-lookup N (files the explorer reads after each lookup, default 2), --policy
 * consensus|follow (which files it reads: those the answers name most, or the last answer's first), --only TEXT, --ids FILE (the instances named in FILE, one id a line), --dataset NAME, --limit N, --max-calls N (default 12), --keep-trees,
 * --mirrors DIR, --workdir DIR (default $TMPDIR/autofix-bench-agent), --json FILE, --verbose (each
 * call's one-line account on stderr).
 */
import { writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToolLoop } from '../src/agent-loop/run-tool-loop.js';
import { DEFAULT_CONTEXT_BUDGET } from '../src/context/build-prompt-context.js';
import { explainContext } from '../src/context/explain-context.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../fakes/llm/index.js';
import { createLlmClient } from '../src/llm/create-llm-client.js';
import { TOOLS } from '../src/tools/registry.js';
import { createToolWorkspace } from '../src/tools/tool-workspace.js';
import { filesToReadNext, renderFilesToReadNext } from '../src/context/files-to-read-next.js';
import { lookupCeiling } from './agent/lookup-ceiling.js';
import { createExplorer, type Explorer } from './agent/scripted-explorer.js';
import { checkoutAt } from './context/checkout.js';
import { median, type Instance } from './context/gold.js';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const ONLY = flag('only');
const IDS = flag('ids');
const DATASET = flag('dataset');
const LIMIT = flag('limit') ? Number(flag('limit')) : undefined;
const MAX_CALLS = Number(flag('max-calls') ?? 12);
const READS = Number(flag('reads-per-lookup') ?? 2);
const POLICY = flag('policy') === 'follow' ? 'follow' : 'consensus';
const KEEP_TREES = process.argv.includes('--keep-trees');
const MIRRORS = flag('mirrors') ?? '/work/.mirror';
const WORKDIR = flag('workdir') ?? join(tmpdir(), 'autofix-bench-agent');
const JSON_OUT = flag('json');
const VERBOSE = process.argv.includes('--verbose');
const INSTANCES = fileURLToPath(new URL('../../bench/context/instances.jsonl', import.meta.url));
const VIEW = 5;

interface Result {
  id: string;
  dataset: string;
  inView: boolean;
  reachedAt: number | undefined;
  /** The reference: the fewest calls any choice of the issue's lookups needs (`lookupCeiling`). */
  ceiling: number | undefined;
  calls: number;
  tokens: number;
  ms: number;
  turnOverheadMs: number[];
}

let explorer: Explorer | undefined;

async function runOne(instance: Instance, llm: ScriptedLlmServer): Promise<Result> {
  const dir = checkoutAt(instance.repo, instance.base, {
    mirrors: MIRRORS,
    workdir: WORKDIR,
    keep: KEEP_TREES,
  });
  // The whole ranking: the tools list the files it scored first, as in a run.
  const report = await explainContext(dir, instance.issue, {
    budget: DEFAULT_CONTEXT_BUDGET,
    top: Number.MAX_SAFE_INTEGER,
  });
  const view = report.ranking.slice(0, VIEW).map((r) => r.path);
  const inView = view.some((p) => instance.gold.includes(p));
  // What the opening message shows whole the model has read before its first call.
  const shownWhole = report.context.code.files.filter((f) => !f.truncated).map((f) => f.path);
  const next = filesToReadNext(
    report.ranking.map((r) => r.path),
    report.context.code.files,
  );
  // The view is the first five; the files after them, shown in part or not at all, are suggested.
  const suggested = next.map((f) => f.path).filter((p) => !view.includes(p));
  explorer = createExplorer(
    instance.issue,
    [...new Set([...view, ...shownWhole])],
    instance.gold,
    MAX_CALLS,
    READS,
    suggested,
    POLICY,
  );
  const workspace = createToolWorkspace(
    { worktree: dir, gitDir: join(dir, '.git') },
    { ranked: report.ranking.map((r) => r.path) },
  );
  const client = createLlmClient({ baseUrl: llm.baseUrl });
  const before = llm.chatRequests().length;
  const started = performance.now();
  const out = await runToolLoop(
    {
      model: 'scripted-explorer',
      stage: 'code',
      tools: TOOLS,
      limits: { maxCalls: MAX_CALLS + 1, maxTurns: MAX_CALLS + 2 },
      messages: [
        { role: 'system', content: 'You fix the issue with the tools.' },
        {
          role: 'user',
          content: `${instance.issue}\n\n${report.context.outline.text}\n\n${report.context.code.text}\n\n## Files the ranking suggests next\n\n${renderFilesToReadNext(next)}`,
        },
      ],
    },
    {
      llm: client,
      workspace,
      ...(VERBOSE ? { onStep: (s) => process.stderr.write(`  ${s.turn}. ${s.summary}\n`) } : {}),
    },
  );
  const ms = performance.now() - started;
  const requests = llm.chatRequests().slice(before);
  // Per turn: its wall time less the model's (the scripted server's own handling).
  const turnOverheadMs = requests
    .map((r, i) => {
      const next = requests[i + 1]?.receivedAt ?? r.receivedAt + ms;
      return Math.max(0, next - (r.respondedAt ?? r.receivedAt));
    })
    .slice(0, -1);
  return {
    id: instance.id,
    dataset: instance.dataset,
    inView,
    reachedAt: inView ? 0 : explorer.reachedAt(),
    ceiling: inView
      ? 0
      : await lookupCeiling(
          instance.issue,
          [...new Set([...view, ...shownWhole])],
          instance.gold,
          workspace,
          MAX_CALLS,
          suggested,
        ),
    calls: out.steps.filter((s) => s.tool !== 'finish').length,
    tokens: out.tokens,
    ms,
    turnOverheadMs,
  };
}

const pct = (n: number, d: number): string =>
  d === 0 ? '    -' : `${((100 * n) / d).toFixed(1)}`.padStart(5);

function row(label: string, rs: Result[]): string {
  const outside = rs.filter((r) => !r.inView);
  const within = (k: number, by: 'reachedAt' | 'ceiling' = 'reachedAt') =>
    outside.filter((r) => r[by] !== undefined && r[by] <= k).length;
  return [
    label.padEnd(16),
    String(rs.length).padStart(4),
    String(outside.length).padStart(8),
    pct(rs.length - outside.length, rs.length),
    pct(rs.length - outside.length + within(8), rs.length),
    pct(within(4), outside.length),
    pct(within(8), outside.length),
    pct(within(4, 'ceiling'), outside.length),
    pct(within(8, 'ceiling'), outside.length),
    String(median(rs.map((r) => r.calls))).padStart(6),
    String(Math.round(median(rs.map((r) => r.tokens)))).padStart(7),
    median(rs.map((r) => r.ms))
      .toFixed(0)
      .padStart(7),
    median(rs.flatMap((r) => r.turnOverheadMs))
      .toFixed(1)
      .padStart(8),
  ].join(' ');
}

async function main(): Promise<void> {
  const ids = IDS
    ? new Set(
        readFileSync(IDS, 'utf8')
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean),
      )
    : undefined;
  const instances = readFileSync(INSTANCES, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Instance)
    .filter((i) => (!ONLY || i.id.includes(ONLY)) && (!DATASET || i.dataset === DATASET))
    .filter((i) => !ids || ids.has(i.id))
    .slice(0, LIMIT);
  const llm = await startScriptedLlmServer({
    respond: (req) => {
      const last = req.body.messages.at(-1);
      // The answer as the tool gave it, without the quote the loop puts around it.
      const text =
        last?.role === 'tool' ? last.content.split('\n').slice(1, -1).join('\n') : undefined;
      const next = explorer!.next(text);
      return { content: '', toolCalls: [{ name: next.name, arguments: next.arguments }] };
    },
  });
  const results: Result[] = [];
  try {
    for (const [n, instance] of instances.entries()) {
      const r = await runOne(instance, llm);
      results.push(r);
      process.stderr.write(
        `[${n + 1}/${instances.length}] ${r.id}: ${r.inView ? 'in view' : `outside, reached at ${r.reachedAt ?? '-'}`} (${r.calls} calls, ${r.ms.toFixed(0)} ms)\n`,
      );
    }
  } finally {
    await llm.close();
  }
  if (JSON_OUT) await writeFile(JSON_OUT, JSON.stringify(results, null, 2));
  const head = [
    'set'.padEnd(16),
    '   n',
    ' outside',
    ' 1shot',
    ' loop8',
    '  @4o',
    '  @8o',
    ' ceil4',
    ' ceil8',
    ' calls',
    ' tokens',
    '  wall',
    'ovh/turn',
  ].join(' ');
  console.log(
    `Tool loop vs one-shot on ${results.length} real issues (view: the first ${VIEW} ranked files; at most ${MAX_CALLS} tool calls)`,
  );
  console.log(
    "1shot: % of tasks whose gold file is in the view; loop8: % reached in the view or within 8 calls; @4o/@8o: % of the outside tasks reached within 4/8 calls; ceil4/ceil8: % of them the best choice of the issue's lookups (or the suggested files) reaches within 4/8 calls (the tools' reference); calls, tokens, wall ms: p50 per task; ovh/turn: p50 ms per turn, everything but the model.",
  );
  console.log(head);
  for (const d of [...new Set(results.map((r) => r.dataset))].sort())
    console.log(
      row(
        d,
        results.filter((r) => r.dataset === d),
      ),
    );
  console.log(row('all', results));
  const outside = results.filter((r) => !r.inView);
  const within = (k: number, by: 'reachedAt' | 'ceiling' = 'reachedAt') =>
    outside.filter((r) => r[by] !== undefined && r[by] <= k).length / Math.max(1, outside.length);
  console.log(
    `SUMMARY agent reached_at4=${within(4).toFixed(3)} reached_at8=${within(8).toFixed(3)} ceiling_at4=${within(4, 'ceiling').toFixed(3)} ceiling_at8=${within(8, 'ceiling').toFixed(3)} outside_view=${outside.length} calls_p50=${median(results.map((r) => r.calls))} tokens_p50=${Math.round(median(results.map((r) => r.tokens)))} turn_overhead_ms_p50=${median(results.flatMap((r) => r.turnOverheadMs)).toFixed(1)}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
