/**
 * `autofix demo`: the whole pipeline of `autofix run` — triage, plan, code, validation in the
 * sandbox, a repair, the commit — on a sample repository, against the scripted model on
 * 127.0.0.1. No API key, no GitHub, no Redis, no network beyond loopback.
 */
import { createLogger } from '../logger.js';
import { runGit } from '../git/run-git.js';
import type { ProgressEvent } from '../pipeline/ports.js';
import { runLocal, type LocalRunReport } from '../hosts/local/run-local.js';
import { testsBrokenBeforeRepair } from './demo-llm.js';
import { setUpDemo, shellQuote, type DemoOptions } from './demo-setup.js';
import { DEMO_FILE, DEMO_ISSUE, DEMO_ISSUE_NUMBER, DEMO_VALIDATE } from './sample.js';

export interface DemoOutput {
  out: NodeJS.WritableStream;
  /** Progress lines as the run goes. */
  progress: (e: ProgressEvent) => void;
  /** Called once the run ended (stops a progress heartbeat before the report). */
  progressDone: () => void;
  printReport: (report: LocalRunReport, out: NodeJS.WritableStream) => void;
}

export async function runDemo(options: DemoOptions, io: DemoOutput): Promise<LocalRunReport> {
  const started = Date.now();
  const say = (text = ''): void => void io.out.write(`${text}\n`);
  const demo = await setUpDemo(options);
  try {
    say('autofix demo: the real pipeline on a sample repository, with a scripted model.');
    say(`  repository  ${demo.repo}  (a small JS library; \`${DEMO_VALIDATE}\` fails)`);
    say(`  issue #${DEMO_ISSUE_NUMBER}   ${DEMO_ISSUE.title}`);
    say(`  model       scripted, ${demo.llm.baseUrl} (loopback; no API key, no network)`);
    say(
      `  sandbox     ${options.sandbox === 'none' ? 'none (--sandbox none: the tests run unisolated)' : 'bubblewrap'}`,
    );
    say();
    const report = await runLocal(
      {
        repo: demo.repo,
        issueText: `${DEMO_ISSUE.title}\n\n${DEMO_ISSUE.body}\n`,
        number: DEMO_ISSUE_NUMBER,
        sandbox: options.sandbox,
        ...(demo.artifactsDir ? { artifactsDir: demo.artifactsDir } : {}),
      },
      demo.settings(),
      { log: createLogger({ level: 'silent' }), progress: io.progress },
    );
    io.progressDone();
    io.printReport(report, io.out);
    const branch = report.result?.commit?.branch;
    if (branch) {
      const shown = await runGit(['show', '--format=medium', branch], { cwd: demo.repo });
      say();
      say(`The commit (git -C ${shellQuote(demo.repo)} show ${branch}):`);
      say(shown.stdout.trimEnd());
    }
    say();
    if (report.outcome === 'success') {
      const repairs = report.result?.code?.repairs ?? 0;
      const broken = testsBrokenBeforeRepair(demo.llm).map((t) => `"${t}"`);
      say(
        `What happened: the code agent's first diff for ${DEMO_FILE} fixed the bug but broke ` +
          `${broken.length > 0 ? broken.join(', ') : 'another test'}, a test that passed on the base commit, ` +
          `so validation failed; the code fixer got that failure and repaired the change ` +
          `(${repairs} repair${repairs === 1 ? '' : 's'}); \`${DEMO_VALIDATE}\` passed${options.sandbox === 'none' ? '' : ' in the sandbox'} and the ` +
          `commit landed on ${branch}. The tests that show the bug failed on the base commit too: ` +
          'the baseline tells them apart from what a change breaks.',
      );
    }
    say(`The sample repository stays at ${demo.repo}. Look at it:`);
    say(`  git -C ${shellQuote(demo.repo)} log --oneline --all`);
    if (branch) say(`  git -C ${shellQuote(demo.repo)} diff main ${branch}`);
    say(`  rm -rf ${shellQuote(demo.root)}   # when done`);
    say(`The artifacts (every prompt and answer, the test logs) stay at ${report.artifactsDir}.`);
    if (demo.artifactsDir) say('(The workspace cache is removed now; --keep keeps it.)');
    say(`Demo took ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    say(
      'Next: `autofix demo --app` runs the same through `autofix serve` (needs Redis); ' +
        '`autofix run --repo <yours> --issue-file <issue.md>` with OPENAI_API_KEY set runs it on your code.',
    );
    return report;
  } finally {
    await demo.cleanup();
  }
}
