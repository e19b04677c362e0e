/**
 * What the reporter put first and what the code never defines (issue #18): a symbol of the
 * title weighs more than one of the body; a name that nothing defines leads to where it is used
 * as a key, attribute or parameter; a double-quoted message may hold an apostrophe. Each test
 * fails without its rule.
 */
import { extractIssueRefs } from '../../../src/context/extract-issue-refs.js';
import { findUses } from '../../../src/context/grep-code.js';
import { namesToLocate, rankFiles } from '../../../src/context/rank-files.js';
import { mapOf, pythonNoise } from './map-of.js';

const ranked = (files: Record<string, string>, issue: string): string[] =>
  rankFiles(mapOf(files), issue).files.map((f) => f.path);

const noise = pythonNoise;

describe("the title's symbols", () => {
  const issue = [
    '`bulk_update()` ignores the batch',
    '',
    'When I call bulk_update on a queryset, `collect_all` runs first and the objects are',
    'saved one by one.',
  ].join('\n');

  it('are listed as the title names them', () => {
    expect(extractIssueRefs(issue).titleNames).toEqual(['bulk_update']);
  });

  it("weigh more than the body's: the file defining the title's symbol ranks first", () => {
    const files = {
      ...noise,
      'pkg/query.py': 'class QuerySet:\n    def bulk_update(self, objs, fields):\n        pass\n',
      'pkg/deletion.py': 'def collect_all(objects, batch):\n    pass\n',
    };
    // Without the title's weight, the body's `collect_all` (whose file holds more of the issue's
    // words) comes first.
    expect(ranked(files, issue)[0]).toBe('pkg/query.py');
  });

  it('come first among the 60 names looked up', () => {
    const many = Array.from({ length: 80 }, (_, i) => `aaa_name${i}`).join(' ');
    const text = `zz_last breaks\n\nThe log: ${many} and zz_last`;
    expect(namesToLocate(extractIssueRefs(text)).named).toContain('zz_last');
  });
});

describe('a name that nothing defines', () => {
  it('is found where it is a key, an instance attribute or a parameter', () => {
    const at = (content: string): number[] =>
      findUses([{ path: 'a.py', content }], 'scp_if_ssh').map((h) => h.line);
    expect(at('x = 1\nif self.get_option("scp_if_ssh"):\n    pass\n')).toEqual([2]);
    expect(at("class C:\n    def __init__(self):\n        self.scp_if_ssh = 'smart'\n")).toEqual([
      3,
    ]);
    expect(at('def run(self, cmd, scp_if_ssh=False):\n    pass\n')).toEqual([1]);
    expect(at('def run(\n    self,\n    scp_if_ssh: bool = False,\n):\n    pass\n')).toEqual([3]);
    expect(at('# scp_if_ssh is read elsewhere\nprint(scp_if_ssh)\n')).toEqual([]);
    expect(at('if scp_if_ssh == 1:\n    pass\n')).toEqual([]);
  });

  it('ranks the file that reads it as a setting', () => {
    const files = {
      ...noise,
      'pkg/transfer.py':
        'class Transfer:\n    def put(self, path):\n        if self.get_option("scp_if_ssh"):\n            return path\n',
      'pkg/worker.py':
        'def run(job):\n    # The file is copied with sftp, as the config says.\n    return job\n',
      'docs/config.rst': 'scp_if_ssh\n  whether to use scp\n',
    };
    const issue =
      'File copy ignores my setting\n\nWith scp_if_ssh = True in my config, sftp is used.';
    expect(ranked(files, issue)[0]).toBe('pkg/transfer.py');
  });

  it('is not looked for where a definition exists', () => {
    const files = {
      ...noise,
      'pkg/a.py': 'def scp_if_ssh():\n    pass\n',
      'pkg/b.py': 'use("scp_if_ssh")\n',
    };
    const reasons = rankFiles(mapOf(files), 'Broken\n\nscp_if_ssh fails').files.find(
      (f) => f.path === 'pkg/b.py',
    )?.reasons;
    expect(reasons?.join(' ') ?? '').not.toMatch(/uses `scp_if_ssh`/);
  });
});

describe('quoted messages', () => {
  it('may hold an apostrophe in double quotes, and prose apostrophes do not pair up', () => {
    const refs = extractIssueRefs(
      "Crash\n\nIt says \"can't convert expression to float\" and it's wrong, don't know why it's so",
    );
    expect(refs.messages).toEqual(["can't convert expression to float"]);
  });

  it('rank the file that raises one', () => {
    const files = {
      ...noise,
      'pkg/expr.py':
        'def to_float(e):\n    raise TypeError("can\'t convert expression to float")\n',
    };
    expect(ranked(files, 'Crash\n\nIt says "can\'t convert expression to float".')[0]).toBe(
      'pkg/expr.py',
    );
  });
});

describe("the reproducer's own setup", () => {
  const issue = [
    'Sorting breaks on ties',
    '',
    '```python',
    'from pkg import Table',
    'rows = Table()',
    '```',
    'Then `merge_ties` puts the equal rows in the wrong order.',
  ].join('\n');

  it('is a name only the code blocks hold', () => {
    const refs = extractIssueRefs(issue);
    expect(refs.codeOnlyNames).toEqual(['Table']);
  });

  it('weighs less than a name the reporter wrote about', () => {
    const files = {
      ...noise,
      'pkg/__init__.py': 'from .table import Table\n',
      'pkg/table.py': 'class Table:\n    pass\n',
      'pkg/ties.py':
        'def merge_ties(rows):\n    """Equal rows keep their order."""\n    return rows\n',
    };
    // Without the factor, `Table` (imported, defined, named like its file) has 75 points.
    expect(ranked(files, issue)[0]).toBe('pkg/ties.py');
  });
});
