/**
 * A GitHub Actions job log as the API serves it (time-stamped lines, `##[group]Run` steps, an
 * `##[error]`): setup noise, then the failing step printing `failure`, then a cleanup step.
 */
export function actionsLog(failure: string): string {
  const t = (i: number): string => `2026-11-25T10:00:${String(i).padStart(2, '0')}.1234567Z`;
  const lines = [
    '##[group]Runner Image',
    'Image: ubuntu-24.04',
    '##[endgroup]',
    '##[group]Run actions/checkout@v4',
    'with:',
    '  repository: Codertocat/Hello-World',
    '##[endgroup]',
    'Syncing repository: Codertocat/Hello-World',
    ...Array.from({ length: 40 }, (_, i) => `Download action repository noise ${i}`),
    '##[group]Run npm test',
    '\u001b[36;1mnpm test\u001b[0m',
    'shell: /usr/bin/bash -e {0}',
    '##[endgroup]',
    '> sample@1.0.0 test',
    '> node test.js',
    failure,
    '    at Object.<anonymous> (/home/runner/work/x/x/test.js:4:8)',
    '##[error]Process completed with exit code 1.',
    '##[group]Run actions/upload-artifact@v4',
    'cleanup noise',
    '##[endgroup]',
  ];
  return lines.map((l, i) => `${t(i % 60)} ${l}`).join('\n');
}
