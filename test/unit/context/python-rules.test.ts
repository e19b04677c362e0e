/**
 * The ranking's rules for Python issues (issue #18): imports and re-exports, traceback frames,
 * keywords and builtins, the project's own package name. Each test fails without its rule.
 */
import {
  pythonDefinition,
  pythonModuleFile,
  pythonModules,
  importGraph,
} from '../../../src/context/code-graph.js';
import { extractIssueRefs } from '../../../src/context/extract-issue-refs.js';
import { findMessage } from '../../../src/context/grep-code.js';
import { rankFiles } from '../../../src/context/rank-files.js';
import { mapOf } from './map-of.js';

const filesOf = (files: Record<string, string>) =>
  Object.entries(files).map(([path, content]) => ({ path, content }));

const noise = Object.fromEntries(
  Array.from({ length: 30 }, (_, i) => [
    `pkg/part${i}/worker${i}.py`,
    `def work${i}(job):\n    return job.total * ${i}\n`,
  ]),
);

describe('Python modules and re-exports', () => {
  const files = {
    'src/pkg/__init__.py':
      'from .core import Dataset\nfrom pkg.io import *\nfrom . import fields\n',
    'src/pkg/core.py': 'class Dataset:\n    def to_json(self):\n        pass\n',
    'src/pkg/io.py': 'from ._readers import (\n    read_file,\n    read_dir as read_folder,\n)\n',
    'src/pkg/_readers.py': 'def read_file(p):\n    pass\n\n\ndef read_dir(p):\n    pass\n',
    'src/pkg/fields.py': 'LIMIT = 3\n',
  };
  const modules = pythonModules(filesOf(files));

  it('resolves a dotted module to its file, in a src/ layout too', () => {
    expect(pythonModuleFile(modules, 'pkg')).toBe('src/pkg/__init__.py');
    expect(pythonModuleFile(modules, 'pkg.io')).toBe('src/pkg/io.py');
    expect(pythonModuleFile(modules, 'pkg.missing')).toBeUndefined();
  });

  it('follows `from .x import Name`, `import *` and `as` re-exports to the defining file', () => {
    expect(pythonDefinition(modules, 'src/pkg/__init__.py', 'Dataset')).toEqual({
      path: 'src/pkg/core.py',
      line: 1,
      via: ['src/pkg/__init__.py'],
    });
    // `from pkg.io import *` → io.py → multi-line `from ._readers import (…)`.
    expect(pythonDefinition(modules, 'src/pkg/__init__.py', 'read_file')?.path).toBe(
      'src/pkg/_readers.py',
    );
    expect(pythonDefinition(modules, 'src/pkg/io.py', 'read_folder')?.path).toBe(
      'src/pkg/_readers.py',
    );
    expect(pythonDefinition(modules, 'src/pkg/__init__.py', 'fields')).toEqual({
      path: 'src/pkg/fields.py',
      via: [],
      module: true,
    });
    expect(pythonDefinition(modules, 'src/pkg/__init__.py', 'Nothing')).toBeUndefined();
  });

  it('reads multi-line and aliased imports into the import graph', () => {
    const graph = importGraph(filesOf(files));
    expect([...(graph.get('src/pkg/io.py') ?? [])]).toEqual(['src/pkg/_readers.py']);
  });
});

describe('quoted messages with values filled in without quotes', () => {
  it('finds four words in a row of the message, as a weaker (partial) hit', () => {
    const files = [
      {
        path: 'pkg/query.py',
        content: 'raise FieldError("Cannot resolve keyword %s into field. Choices are: %s" % x)\n',
      },
      // The same words in a comment are not the message.
      { path: 'pkg/other.py', content: '# Cannot resolve keyword price into field here\n' },
    ];
    expect(
      findMessage(files, 'Cannot resolve keyword price into field. Choices are: id, name'),
    ).toEqual([{ path: 'pkg/query.py', line: 1, partial: true }]);
  });
});

describe('Python issue references', () => {
  it('orders traceback frames innermost first and keeps each frame\u2019s function', () => {
    const refs = extractIssueRefs(
      [
        'Traceback (most recent call last):',
        '  File "run.py", line 3, in <module>',
        '  File "/venv/site-packages/pkg/api.py", line 10, in load',
        '  File "/venv/site-packages/pkg/core.py", line 20, in parse',
        'ValueError: bad input',
      ].join('\n'),
    );
    const frames = refs.paths.filter((p) => p.trace);
    expect(frames.map((f) => [f.path, f.depth, f.fn])).toEqual([
      ['run.py', 2, undefined],
      ['/venv/site-packages/pkg/api.py', 1, 'load'],
      ['/venv/site-packages/pkg/core.py', 0, 'parse'],
    ]);
  });

  it('takes no names from the source lines a traceback prints under its frames', () => {
    const refs = extractIssueRefs(
      [
        '`Dataset.to_json` fails:',
        'Traceback (most recent call last):',
        '  File "/venv/site-packages/pkg/dataset.py", line 10, in to_json',
        '    value = convert_value(raw, valtype=pkg.valuerep.IS)',
        'TypeError: Could not convert value',
      ].join('\n'),
    );
    expect(refs.identifiers).toEqual(['Dataset', 'to_json']);
    expect(refs.dotted).toEqual(['Dataset.to_json']);
  });

  it('reads the imports of the issue\u2019s code, also after a `>>>` prompt', () => {
    const refs = extractIssueRefs(
      '```python\n>>> from pkg.io import read_file, read_dir as rd\nimport pkg.core\n```',
    );
    expect(refs.imports).toEqual([
      { module: 'pkg.io', names: ['read_file', 'read_dir'] },
      { module: 'pkg.core', names: [] },
    ]);
  });

  it('takes no keyword, builtin or link word for an identifier, and no word of a command line', () => {
    const refs = extractIssueRefs(
      'Run `pip install pkg==2.0 --upgrade` then `from pkg import x`: `str(x)` raises ' +
        '`TypeError` (see https://example.org/files/123/run_me.zip). `load_file` is fine.',
    );
    expect(refs.identifiers).toEqual(['load_file']);
  });
});

describe('Python ranking rules', () => {
  it('ranks the file defining a name the issue imports above files only re-exporting it', () => {
    const files = {
      ...noise,
      'pkg/__init__.py': 'from .frames import Frame\n',
      'pkg/frames.py': 'class Frame:\n    pass\n',
      // Defines another `Frame`: grep alone cannot tell the two apart.
      'pkg/legacy/frames_old.py': 'class Frame:\n    pass\n',
    };
    const ranking = rankFiles(
      mapOf(files),
      '```python\nfrom pkg import Frame\nFrame().shape\n```\nshape is wrong',
    );
    expect(ranking.files[0]?.path).toBe('pkg/frames.py');
    expect(ranking.files[0]?.reasons).toContain(
      'defines `Frame` (`from pkg import Frame`, via pkg/__init__.py)',
    );
  });

  it('does not count `from pkg import subpackage` (a way in to the API) for the package', () => {
    const files = {
      ...noise,
      'pkg/__init__.py': '',
      'pkg/models/__init__.py': 'from .fields import CharField\n',
      'pkg/models/fields.py': 'class CharField:\n    pass\n',
    };
    const ranking = rankFiles(
      mapOf(files),
      '```python\nfrom pkg import models\nmodels.CharField(max_length=3)\n```\nmax_length is ignored',
    );
    expect(ranking.files[0]?.path).toBe('pkg/models/fields.py');
    const init = ranking.files.find((f) => f.path === 'pkg/models/__init__.py');
    expect(init?.reasons ?? []).not.toContainEqual(expect.stringMatching(/^module `models`/));
  });

  it('ranks the file whose class defines the method of a dotted `Class.method` first', () => {
    const files = {
      ...noise,
      'pkg/dataset.py': 'class Dataset:\n    def to_json_dict(self):\n        pass\n',
      // Defines a `Dataset` and a top-level `to_json_dict` (smaller: it would win the tie).
      'pkg/element.py': 'class Dataset:\n    pass\n\n\ndef to_json_dict(e):\n    pass\n',
    };
    const ranking = rankFiles(mapOf(files), 'Dataset.to_json_dict raises on a bad tag');
    expect(ranking.files[0]?.path).toBe('pkg/dataset.py');
    expect(ranking.files[0]?.reasons).toContain('defines `Dataset.to_json_dict`');
  });

  it('ranks where an exception is raised above the module that defines its type', () => {
    const files = {
      ...noise,
      'pkg/exceptions.py': 'class FieldError(Exception):\n    pass\n',
      'pkg/query.py':
        'from .exceptions import FieldError\n\n\ndef resolve(name):\n' +
        '    raise FieldError("Cannot resolve keyword %r into field" % name)\n',
    };
    const ranking = rankFiles(
      mapOf(files),
      "pkg.exceptions.FieldError: Cannot resolve keyword 'price' into field",
    );
    expect(ranking.files[0]?.path).toBe('pkg/query.py');
    const defining = ranking.files.find((f) => f.path === 'pkg/exceptions.py');
    expect(defining?.reasons ?? []).not.toContainEqual(expect.stringMatching(/^module `/));
  });

  it('lists the modules that read a named setting right after the one that defines it', () => {
    const files = {
      ...noise,
      'pkg/conf/global_settings.py': 'FILE_UPLOAD_PERMISSIONS = None\n',
      'pkg/files/storage.py':
        'from pkg.conf import settings\n\n\ndef save(f):\n' +
        '    mode = settings.FILE_UPLOAD_PERMISSIONS\n',
      'pkg/files/uploads.py': 'def save(f):\n    # keeps the upload permissions\n    pass\n',
    };
    const ranking = rankFiles(mapOf(files), 'Set a default FILE_UPLOAD_PERMISSIONS of 0o644');
    expect(ranking.files.map((f) => f.path).slice(0, 2)).toEqual([
      'pkg/conf/global_settings.py',
      'pkg/files/storage.py',
    ]);
    expect(ranking.files[1]?.reasons).toContain('reads the setting `FILE_UPLOAD_PERMISSIONS`');
  });

  it('puts the innermost frame in the repository above its callers', () => {
    const files = {
      ...noise,
      'pkg/api.py': 'from .core import parse\n\ndef load(p):\n    return parse(p)\n',
      'pkg/core.py': 'def parse(p):\n    raise ValueError(p)\n',
    };
    const ranking = rankFiles(
      mapOf(files),
      [
        'Traceback (most recent call last):',
        '  File "/venv/lib/site-packages/pkg/api.py", line 4, in load',
        '  File "/venv/lib/site-packages/pkg/api.py", line 4, in load',
        '  File "/venv/lib/site-packages/pkg/core.py", line 2, in parse',
        '  File "/venv/lib/site-packages/numpy/core.py", line 99, in asarray',
        'ValueError: x',
      ].join('\n'),
    );
    expect(ranking.files.map((f) => f.path).slice(0, 2)).toEqual(['pkg/core.py', 'pkg/api.py']);
    expect(ranking.files[0]?.reasons[0]).toMatch(/innermost frame in the repository/);
  });

  it('does not take the user\u2019s script for a repository file of the same name', () => {
    const files = {
      ...noise,
      'dicom.py': 'import pkg\n',
      'pkg/core.py': 'def to_dict(ds):\n    pass\n',
    };
    const ranking = rankFiles(
      mapOf(files),
      [
        'Traceback (most recent call last):',
        '  File "dicom.py", line 143, in create_dict',
        '  File "/usr/lib/python3/dist-packages/pkg/core.py", line 2, in to_dict',
      ].join('\n'),
    );
    expect(ranking.files[0]?.path).toBe('pkg/core.py');
    expect(ranking.files.find((f) => f.path === 'dicom.py')?.reasons ?? []).not.toContainEqual(
      expect.stringMatching(/stack trace/),
    );
  });

  it('does not count the project\u2019s own package name as naming its files', () => {
    const files = {
      ...noise,
      'pkg/__init__.py': 'from .api import load\n',
      'pkg/api.py': 'def load(p):\n    pass\n',
      'pkg/modutils.py': 'def load_module(name):\n    """Unable to load module files."""\n',
    };
    const ranking = rankFiles(mapOf(files), '`pkg` fails: unable to load module files');
    expect(ranking.files[0]?.path).toBe('pkg/modutils.py');
    expect(ranking.files.flatMap((f) => f.reasons)).not.toContain('path matches `pkg`');
  });

  it('counts a file that defines many named things more, not many times more', () => {
    const config = Array.from({ length: 8 }, (_, i) => `option_${i} = ${i}`).join('\n');
    const files = {
      ...noise,
      'pkg/settings.py': `${config}\n`,
      'pkg/writer.py': 'def write_text(path, text):\n    pass\n',
      'pkg/reader.py': 'def write_text_or_not():\n    pass\n',
    };
    const issue = [
      '`write_text` loses the file. My settings:',
      ...Array.from({ length: 8 }, (_, i) => `option_${i} = ${i}`),
    ].join('\n');
    const ranking = rankFiles(mapOf(files), issue);
    const settings = ranking.files.find((f) => f.path === 'pkg/settings.py');
    const writer = ranking.files.find((f) => f.path === 'pkg/writer.py');
    // Eight definitions: 30 × (1 + 1/2 + … + 1/8) ≈ 82 points (plus word overlap), not 240.
    expect(settings?.score ?? 0).toBeLessThan(150);
    expect(writer?.reasons).toContain('defines `write_text`');
  });
});

describe('a versioned name the code no longer defines', () => {
  const files = {
    ...noise,
    'pkg/dataset.py': 'from .valuerep import PersonName\n\nclass Dataset:\n    pass\n',
    'pkg/valuerep.py': 'class PersonName:\n    def __str__(self):\n        return self.name\n',
    'pkg/jsonrep.py': 'def to_json(value):\n    return str(value)\n',
  };
  const issue =
    "Make PersonName3 iterable\n```\nTypeError: argument of type 'PersonName3' is not iterable\n```";

  it('points at the definition of the name without its number (`PersonName3` → `PersonName`)', () => {
    const ranking = rankFiles(mapOf(files), issue);
    expect(ranking.files[0]?.path).toBe('pkg/valuerep.py');
    expect(ranking.files[0]?.reasons).toContain(
      "defines `PersonName` (the issue's `PersonName3` is defined nowhere)",
    );
  });

  it('keeps to the versioned name when the code defines it', () => {
    const withBoth = { ...files, 'pkg/compat.py': 'class PersonName3:\n    pass\n' };
    const ranking = rankFiles(mapOf(withBoth), issue);
    expect(ranking.files[0]?.path).toBe('pkg/compat.py');
    const valuerep = ranking.files.find((f) => f.path === 'pkg/valuerep.py');
    expect(valuerep?.reasons.join('; ') ?? '').not.toContain('defines `PersonName`');
  });
});
