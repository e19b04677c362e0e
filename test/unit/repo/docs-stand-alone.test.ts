/**
 * The repository stands alone: no comment, prompt or page points a reader at a document it does
 * not hold — the first design notes or the specifications of the tools Autofix replaced. What is
 * still true of them lives in `docs/` (architecture, contracts, edit formats, security) and the
 * README; comments cite those.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Spelled in parts so that this file does not match itself. */
const OUTSIDE = [
  new RegExp(['DESIGN', 'md'].join('\\.')),
  new RegExp(`\\bseeds? ${'0'}\\d\\d|seed-${'0'}\\d\\d`, 'i'),
];

const tracked = execFileSync(
  'git',
  [
    'ls-files',
    '-z',
    '--',
    'src',
    'fakes',
    'test',
    'bench',
    'docs',
    'agents',
    'README.md',
    'AGENTS.md',
  ],
  { encoding: 'utf8' },
)
  .split('\0')
  // Data a bench replays (real issues) says what its reporters wrote.
  .filter((p) => p !== '' && !p.endsWith('.jsonl'));

describe('docs stand alone', () => {
  it('has files to check', () => {
    expect(tracked.length).toBeGreaterThan(100);
  });

  it('no file cites a document the repository does not hold', () => {
    const offenders = tracked.flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          OUTSIDE.some((re) => re.test(line)) ? [`${path}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(offenders).toEqual([]);
  });
});
