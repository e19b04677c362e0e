/**
 * What a reporter pastes besides their prose (issue #18): the output of their tools. A logger's
 * record, pytest's `E   ` line or a validation error carries the message the code raised; each
 * trace of a chained error was raised somewhere; the environment they ran in (`--version`
 * output, package lists, an "Environment" section) says nothing about where the bug is. And
 * what they name: a file named three ways is named once, a missing data file leads to the code
 * that writes it, the title's one part counts double, a `scripts/` package is code. Each test
 * fails without its rule.
 */
import { extractIssueRefs } from '../../../src/context/extract-issue-refs.js';
import { withoutEnvironment } from '../../../src/context/issue-environment.js';
import { rankFiles } from '../../../src/context/rank-files.js';
import { mapOf, pythonNoise } from './map-of.js';

const ranking = (files: Record<string, string>, issue: string) =>
  rankFiles(mapOf({ ...pythonNoise, ...files }), issue).files;
/** A Python traceback's frame of the reporter's checkout, with its source line. */
const frame = (path: string, line: number, fn: string): string =>
  `  File "/home/u/app/${path}", line ${line}, in ${fn}\n    ${fn}()`;
const ranked = (files: Record<string, string>, issue: string): string[] =>
  ranking(files, issue).map((f) => f.path);

describe("tools' output as messages", () => {
  it.each([
    [
      'a logger record (asctime - name - level - message)',
      '2024-01-02 10:00:00,123 - app.core - WARNING - Retrying the request after a timeout',
      'Retrying the request after a timeout',
    ],
    [
      'a loguru record',
      '2024-01-02 10:00:00.123 | ERROR    | app.mod:run:12 - Failed to parse the response body',
      'Failed to parse the response body',
    ],
    [
      "pytest's captured log",
      'ERROR    app.core:linter.py:200 Unable to lint the file given',
      'Unable to lint the file given',
    ],
    [
      "Python's default format (the logger's name is no part of it)",
      'ERROR:app.loader:Could not load the plugin configuration',
      'Could not load the plugin configuration',
    ],
    [
      "pytest's E line",
      'E   ValueError: invalid literal for the parser',
      'invalid literal for the parser',
    ],
    [
      'a validation error',
      '  Value error, Either a or b must be provided [type=value_error, input_value={}, input_type=dict]',
      'Either a or b must be provided',
    ],
    [
      'a backticked sentence',
      'It stops with `Cannot open the cache database` every time.',
      'Cannot open the cache database',
    ],
  ])('reads %s', (_, line, message) => {
    expect(extractIssueRefs(`Title\n\n\`\`\`\n${line}\n\`\`\`\n`).messages).toEqual([message]);
  });

  it('does not read a backticked command line or expression as a sentence', () => {
    const refs = extractIssueRefs(
      'Title\n\nI ran `pip install foo bar baz` and `python -m app run now` and `x = load(a, b)`.',
    );
    expect(refs.messages).toEqual([]);
  });

  it('ranks the module that raises a logged message first', () => {
    const files = {
      // Longer than `retry.py`, which shares more of the issue's words: word overlap alone ranks it
      // second.
      'app/cache.py':
        'import os\n\n\ndef open_cache(path):\n    if not os.path.exists(path):\n        log.error("Cannot open the cache database")\n        return None\n    return connect(path, timeout=5, isolation_level=None)\n',
      'app/retry.py':
        'def retry(request):\n    """The request fails: retry the request, the retry of a cache database."""\n',
    };
    const issue = [
      'Saving fails',
      '',
      'The request fails and the retry does not help:',
      '```',
      '2024-01-02 10:00:00,123 - app - ERROR - Cannot open the cache database',
      '```',
    ].join('\n');
    expect(ranked(files, issue)[0]).toBe('app/cache.py');
  });
});

describe('chained tracebacks', () => {
  const issue = [
    'Crash on save',
    '',
    '```',
    'Traceback (most recent call last):',
    frame('app/store.py', 10, 'save'),
    frame('app/codec.py', 20, 'encode'),
    'KeyError: "name"',
    '',
    'During handling of the above exception, another exception occurred:',
    '',
    'Traceback (most recent call last):',
    frame('app/cli.py', 5, 'main'),
    frame('app/store.py', 12, 'save'),
    frame('app/errors.py', 3, 'wrap'),
    '  File "/usr/lib/python3/site-packages/attr/_make.py", line 9, in __init__',
    'TypeError: wrap() got an unexpected keyword',
    '```',
  ].join('\n');
  const files = {
    'app/store.py': 'def save():\n    encode()\n',
    'app/codec.py': 'def encode():\n    pass\n',
    'app/cli.py': 'def main():\n    save()\n',
    'app/errors.py': 'def wrap():\n    pass\n',
  };

  it("gives each trace's innermost frame in the repository the innermost weight", () => {
    const out = ranking(files, issue);
    const inner = out.filter((f) => f.reasons.some((r) => r.includes('innermost frame')));
    // The second trace's innermost frame is another package's: its innermost frame here is
    // `errors.py`, which a single innermost depth over both traces left a caller.
    expect(inner.map((f) => f.path).sort()).toEqual(['app/codec.py', 'app/errors.py']);
  });
});

describe("the reporter's environment", () => {
  it('is dropped: its section, its version lines and its package lists', () => {
    const issue = [
      'Crash on save',
      '',
      '### Description',
      'Saving a `Record` fails.',
      '',
      '### Environment',
      '```',
      'tool 2.9.1',
      '  config file = /etc/tool/tool.cfg',
      '  python module location = /usr/lib/python3/dist-packages/tool',
      '```',
      '',
      '### Steps',
      '- OS: Ubuntu 22.04',
      'Python version: 3.11.2',
      'Call `save()`.',
      '',
      'numpy==1.26.0',
      'pandas==2.1.0',
      'requests==2.31.0',
    ].join('\n');
    expect(withoutEnvironment(issue).split('\n')).toEqual([
      'Crash on save',
      '',
      '### Description',
      'Saving a `Record` fails.',
      '',
      '### Steps',
      'Call `save()`.',
      '',
    ]);
  });

  it('keeps two version-like lines, a title that looks like a label, and code', () => {
    const issue = [
      'Version: parsing breaks',
      'It reads `numpy==1.26.0` and `pandas==2.1.0`:',
      '```',
      'load(version="1.2")',
      '```',
    ].join('\n');
    expect(withoutEnvironment(issue)).toBe(issue);
  });

  it('leaves `--version` out of the options unless the title names it', () => {
    const body = '\n\n```\n$ tool --version\ntool 2.9.1\n$ tool --limit 3 hosts\n```\n';
    expect(extractIssueRefs(`Limit is ignored${body}`).options).toEqual(['--limit']);
    expect(extractIssueRefs(`tool --version prints nothing${body}`).options).toEqual([
      '--limit',
      '--version',
    ]);
  });

  it("ranks the bug's module above the settings its configuration section names", () => {
    const files = {
      'app/constants.py': 'DEFAULT_TIMEOUT = 10\nDEFAULT_FORKS = 5\nHOST_LIMIT_FILE = None\n',
      'app/inventory.py': 'class Inventory:\n    def parse_limit(self, limit):\n        pass\n',
    };
    const issue = [
      'Limit is ignored',
      '',
      '##### CONFIGURATION',
      '```',
      'DEFAULT_TIMEOUT(/etc/tool/tool.cfg) = 30',
      'DEFAULT_FORKS(/etc/tool/tool.cfg) = 20',
      'HOST_LIMIT_FILE(/etc/tool/tool.cfg) = /etc/tool/limits',
      '```',
      '##### SUMMARY',
      'The host limit given to `parse_limit` is ignored.',
    ].join('\n');
    expect(ranked(files, issue)[0]).toBe('app/inventory.py');
  });
});

describe('a configuration file the issue names', () => {
  const files = {
    'docker-compose.yml':
      'services:\n  gateway:\n    image: gateway:latest\n    ports:\n      - "4566:4566"\n',
    'app/gateway/router.py':
      'def route(api_id):\n    raise LookupError(f"The API id {api_id} does not correspond to a deployed API")\n',
  };

  it("is the reporter's setup: below the module that raises their error", () => {
    const issue = [
      'Requests to a deployed API fail',
      '',
      'My docker-compose.yml:',
      '```yaml',
      'services:',
      '  gateway:',
      '    image: gateway:latest',
      '```',
      "Every request fails: The API id 'abc' does not correspond to a deployed API",
    ].join('\n');
    const out = ranking(files, issue);
    expect(out[0]?.path).toBe('app/gateway/router.py');
    const compose = out.find((f) => f.path === 'docker-compose.yml');
    expect(compose?.reasons).toEqual(
      expect.arrayContaining([
        'named in the issue (docker-compose.yml)',
        'config/tooling: demoted ×0.3',
      ]),
    );
  });

  it('stays first when the issue is about configuration', () => {
    const issue =
      'Wrong port in the configuration file\n\ndocker-compose.yml maps the gateway to a port nothing listens on, so every request fails: "The API id abc does not correspond to a deployed API".';
    expect(ranked(files, issue)[0]).toBe('docker-compose.yml');
  });
});

describe('a file the issue names that is not in the repository', () => {
  it('leads to the few source files that hold its name as a literal', () => {
    const files = {
      'app/plots.py': 'def save_results(fig):\n    fig.savefig(out / "results.png")\n',
      'app/train.py':
        'def train(model):\n    """After training, the results: blank results are fine, training is fine."""\n',
    };
    const issue =
      'Plot is empty\n\nAfter training, results.png is blank although the results are fine.';
    expect(ranked(files, issue)[0]).toBe('app/plots.py');
  });

  it('not when it is a program file (the reporter’s own script)', () => {
    const files = { 'app/run.py': 'SCRIPT = "main.py"\n' };
    const out = ranking(files, 'Crash\n\nRunning main.py crashes.');
    expect(out.find((f) => f.path === 'app/run.py')?.reasons ?? []).not.toContainEqual(
      expect.stringContaining('not in the repository'),
    );
  });
});

describe("the title's name of one part", () => {
  it('counts double: the file the title names outranks a body name', () => {
    const files = {
      // Larger than `excel.py`: without the title's weight the tie goes to the smaller file.
      'app/io/sql.py': 'def read(con, query, params):\n    pass\n',
      'app/io/excel.py': 'def read(path):\n    pass\n',
    };
    const issue =
      '`sql` reader drops rows\n\nThe `excel` reader keeps them, the excel one is fine and excel files too.';
    expect(ranked(files, issue)[0]).toBe('app/io/sql.py');
  });
});

describe('one mention counts once', () => {
  it('a file the prose names in several forms, and a caller frame it names again', () => {
    const files = {
      'app/run_job.py': 'def main():\n    run()\n',
      'app/engine/core.py':
        'def run():\n    """Run a job: each step of the job, and a second pass."""\n    step()\n',
    };
    const issue = [
      'Crash when running a job',
      '',
      'I run `python app/run_job.py` (run_job.py is the entry point):',
      '```',
      'Traceback (most recent call last):',
      frame('app/run_job.py', 2, 'main'),
      frame('app/engine/core.py', 2, 'run'),
      'ValueError: step failed on the second pass',
      '```',
    ].join('\n');
    const out = ranking(files, issue);
    // The script the reporter ran is named three times (twice in prose, once as the caller):
    // counted once, its mentions weigh what the innermost frame weighs (word overlap decides).
    const script = out.find((f) => f.path === 'app/run_job.py');
    const core = out.find((f) => f.path === 'app/engine/core.py');
    const named = (p: Partial<Record<string, number>> = {}): number =>
      (p.namedPath ?? 0) + (p.traceCaller ?? 0) + (p.tracePath ?? 0);
    expect(named(script?.points)).toBe(100);
    expect(named(core?.points)).toBe(100);
    expect(script?.reasons).toEqual(
      expect.arrayContaining([
        'named in the issue (app/run_job.py)',
        'named in the issue (run_job.py)',
      ]),
    );
  });

  it('a module however many of its names the issue dots into', () => {
    const files = {
      'app/codecs/utf.py': 'TABLE = {}\n',
      'app/writer.py': 'def write(text):\n    pass\n',
    };
    const points = (issue: string): number =>
      ranking(files, issue)
        .find((f) => f.path === 'app/codecs/utf.py')
        ?.reasons.filter((r) => r.startsWith('module')).length ?? 0;
    const scoreOf = (issue: string): number =>
      ranking(files, issue).find((f) => f.path === 'app/codecs/utf.py')?.score ?? 0;
    const one = 'Garbled text\n\nIt reads app.codecs.utf.Table first.';
    const four =
      'Garbled text\n\nIt reads app.codecs.utf.Table, app.codecs.utf.Map, app.codecs.utf.Width and app.codecs.utf.Order.';
    expect(points(four)).toBe(4); // each still said
    // …and counted once: the module's score grows by word overlap only, not by 3 × 40.
    expect(scoreOf(four) - scoreOf(one)).toBeLessThan(20);
  });
});

describe("a project's scripts", () => {
  const files = {
    'scripts/__init__.py': '',
    'scripts/convert.py': 'class Convert:\n    def process(self, frames):\n        pass\n',
    'lib/video.py':
      'def read_frames(path):\n    """Convert the frames of a video: frames to process."""\n',
  };
  const issue = 'Convert drops frames\n\nThe frames are dropped when I convert a video.';

  it('are its code when `scripts/` is a Python package', () => {
    expect(ranked(files, issue)[0]).toBe('scripts/convert.py');
  });

  it('are tooling otherwise', () => {
    const tooling = Object.fromEntries(
      Object.entries(files).filter(([path]) => path !== 'scripts/__init__.py'),
    );
    expect(ranked(tooling, issue)[0]).toBe('lib/video.py');
  });
});

describe('names that are no part', () => {
  it('an empty `__init__.py` is not the entry of the folder a name matches', () => {
    const files = {
      'app/services/iam/__init__.py': '',
      'app/services/iam/listener.py': 'def on_request(request):\n    pass\n',
      'app/services/iam/models.py': 'class Role:\n    pass\n',
    };
    const out = ranked(files, '[IAM] roles are lost\n\nAfter a restart the roles are gone.');
    expect(out[0]).not.toBe('app/services/iam/__init__.py');
  });

  it("the reporter's tools before a part noun (`the docker command`, `to run commands`)", () => {
    const refs = extractIssueRefs(
      'Hangs\n\nThe docker command and the aws cli command hang when I try to run commands.',
    );
    expect(refs.names).toEqual([]);
  });
});

describe('a caller frame in the part the title names', () => {
  it('weighs as the innermost frame: the shared code raised, the named part called it', () => {
    const files = {
      'yt/extractor/common.py':
        'class InfoExtractor:\n    def _download_json(self, url):\n        raise ExtractorError(url)\n',
      'yt/extractor/globo.py':
        'class GloboIE(InfoExtractor):\n    def _real_extract(self, url):\n        return self._download_json(url)\n',
      'yt/extractor/other.py': 'class OtherIE(InfoExtractor):\n    pass\n',
    };
    const issue = [
      'Globo videos: Unable to download JSON metadata',
      '',
      '```',
      'Traceback (most recent call last):',
      '  File "/usr/lib/yt/extractor/globo.py", line 3, in _real_extract',
      '  File "/usr/lib/yt/extractor/common.py", line 3, in _download_json',
      'yt.utils.ExtractorError: Unable to download JSON metadata: HTTP Error 404',
      '```',
    ].join('\n');
    expect(ranked(files, issue)[0]).toBe('yt/extractor/globo.py');
  });
});
