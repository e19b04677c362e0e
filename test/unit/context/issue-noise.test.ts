/**
 * What the reporter did not write, or did not mean as evidence, is no evidence (issue #18, found
 * on MULocBench's real issues): template comments, invisible characters, trace frame lines read
 * again as names, paths on the reporter's machine, a pasted command line of many options; and a
 * title's `[Component]` tag names a part. Each test fails without its rule.
 */
import { extractIssueRefs, titleTags } from '../../../src/context/extract-issue-refs.js';
import { visibleIssueText } from '../../../src/context/issue-text.js';
import { rankFiles } from '../../../src/context/rank-files.js';
import { mapOf, pythonNoise } from './map-of.js';

const ranked = (files: Record<string, string>, issue: string): string[] =>
  rankFiles(mapOf(files), issue).files.map((f) => f.path);
const reasonsOf = (files: Record<string, string>, issue: string, path: string): string[] =>
  rankFiles(mapOf(files), issue).files.find((f) => f.path === path)?.reasons ?? [];

const noise = pythonNoise;

describe('visibleIssueText', () => {
  it('drops HTML comments and invisible format characters, keeps the rest', () => {
    expect(visibleIssueText('a <!-- run with `--verbose`\nsee cli.py --> b')).toBe('a   b');
    expect(visibleIssueText('see \u200elib/x.py\u200e and\u200b y\ufeff')).toBe(
      'see lib/x.py and y',
    );
    expect(visibleIssueText('an unclosed <!-- comment stays')).toBe(
      'an unclosed <!-- comment stays',
    );
  });

  it('is what the ranking reads: a template comment names no file, a marked path resolves', () => {
    const files = { ...noise, 'pkg/cli.py': 'def main():\n    pass\n', 'pkg/darwin.py': 'X = 1\n' };
    const template =
      'Crash on start\n\n<!-- Paste the output of `pkg/cli.py --version` -->\nIt crashes.';
    expect(extractIssueRefs(template).paths).toEqual([]);
    expect(reasonsOf(files, template, 'pkg/cli.py')).toEqual([]);
    const marked = 'Wrong facts\n\nThe bug is in \u200epkg/darwin.py\u200e on macOS.';
    expect(ranked(files, marked)[0]).toBe('pkg/darwin.py');
  });
});

describe('stack traces', () => {
  const trace = [
    'Render fails',
    '',
    'Traceback (most recent call last):',
    '  File "/usr/bin/tool", line 8, in <module>',
    '  File "/app/pkg/runner.py", line 40, in run_scene',
    '    scene.render()',
    '  File "/app/pkg/scene.py", line 12, in render',
    '    self.draw_frame()',
    'ValueError: bad frame',
  ].join('\n');

  it("takes no names from frame lines: a caller's function is not a name the reporter chose", () => {
    expect(extractIssueRefs(trace).identifiers).not.toContain('run_scene');
    const files = {
      ...noise,
      'pkg/runner.py': 'def run_scene(scene):\n    scene.render()\n',
      'pkg/scene.py': 'class Scene:\n    def render(self):\n        self.draw_frame()\n',
    };
    expect(reasonsOf(files, trace, 'pkg/runner.py').join(' ')).not.toMatch(/defines `run_scene`/);
    expect(ranked(files, trace)[0]).toBe('pkg/scene.py');
  });

  it('keeps a file whose other frame names a function it holds (a trace from an older version)', () => {
    const older = [
      'Options fail',
      '',
      'Traceback (most recent call last):',
      '  File "/app/pkg/options.py", line 900, in parseOpts',
      '  File "/app/pkg/options.py", line 120, in _readUserConf',
      'OSError: no such file',
    ].join('\n');
    const files = {
      ...noise,
      // `_readUserConf` was renamed since; `parseOpts` is still here.
      'pkg/options.py': 'def parseOpts(argv):\n    return read_user_config(argv)\n',
    };
    expect(reasonsOf(files, older, 'pkg/options.py').join(' ')).toMatch(/named in a stack trace/);
  });
});

describe("paths on the reporter's machine", () => {
  it('are not every file of the same name here', () => {
    const files = {
      ...noise,
      'pkg/__init__.py': '',
      'pkg/errors/__init__.py': 'class Bad(Exception):\n    pass\n',
    };
    for (const issue of [
      'Import fails\n\nSee /opt/conda/lib/python3.9/site-packages/torch/nn/__init__.py:367',
      'Wrong default\n\nMy ~/.config/tool/__init__.py is ignored',
      'Wrong default\n\nMy /home/me/.config/__init__.py is ignored',
    ])
      for (const path of ['pkg/__init__.py', 'pkg/errors/__init__.py'])
        expect(reasonsOf(files, issue, path).join(' ')).not.toMatch(/file name named/);
    // A relative path of that name still is.
    expect(reasonsOf(files, 'Bad\n\nsee __init__.py', 'pkg/__init__.py').join(' ')).toMatch(
      /named in the issue/,
    );
  });
});

describe('options', () => {
  it('count 1, 1/2, 1/3… for a file that declares many of those named', () => {
    // 25 + 12.5 + 8.3 = 46 points, not 75: below the file that raises the message and defines
    // the function the issue names (30 + 30).
    const options = ['--alpha', '--beta', '--gamma'];
    const files = {
      ...noise,
      'pkg/options.py': options.map((o) => `parser.add_argument("${o}")`).join('\n') + '\n',
      'pkg/net.py':
        'def fetch(url):\n    raise ConnectionError("the proxy refused the connection")\n',
    };
    const issue = `Downloads fail\n\nI ran \`tool ${options.join(' ')}\` and \`fetch\` said "the proxy refused the connection"`;
    expect(ranked(files, issue)[0]).toBe('pkg/net.py');
  });
});

describe('titleTags', () => {
  it('takes the parts a title tag names, not the kind of issue', () => {
    expect(titleTags('[Globo] Videos fail')).toEqual(['Globo']);
    expect(titleTags('[ARD:mediathek] [cbc.ca] x')).toEqual(['ARD', 'mediathek', 'cbc']);
    expect(titleTags('[Bug] [Feature Request] x')).toEqual([]);
    expect(titleTags('Fix [Globo] in the middle')).toEqual([]);
  });

  it('ranks the file of the part a title tag names', () => {
    const files = {
      ...noise,
      'pkg/extractor/globo.py':
        'class GloboIE:\n    def _real_extract(self, url):\n        return url\n',
      'pkg/extractor/common.py':
        'class InfoExtractor:\n    def extract(self, url):\n        return url\n',
    };
    const issue = '[Globo] Videos do not download\n\nThe extract step fails.';
    expect(reasonsOf(files, issue, 'pkg/extractor/globo.py')).toContain(
      'path matches `Globo`, named in the title',
    );
    expect(ranked(files, issue)[0]).toBe('pkg/extractor/globo.py');
  });
});

describe("the project's own package", () => {
  it('is no evidence even where documentation examples hold more files than it', () => {
    const files: Record<string, string> = {
      'fastapi/__init__.py': 'from .app import FastAPI\n',
      'fastapi/app.py': 'class FastAPI:\n    pass\n',
      'fastapi/routing.py': 'def route(path):\n    return path\n',
      'fastapi/params.py': 'def Depends(dep):\n    return dep\n',
      'fastapi/encoders.py': 'def jsonable_encoder(obj):\n    return obj\n',
      'fastapi/dependencies/__init__.py': '',
      'fastapi/dependencies/utils.py':
        'def solve_dependencies(overrides):\n    return overrides  # dependency_overrides\n',
      'fastapi/security/__init__.py': '',
      'fastapi/security/oauth2.py': 'class OAuth2:\n    pass\n',
      'fastapi/openapi/__init__.py': '',
      'fastapi/openapi/utils.py': 'def get_openapi(app):\n    return app\n',
    };
    for (let i = 0; i < 25; i++)
      files[`docs_src/tutorial${i}/main.py`] = `from fastapi import FastAPI\napp = FastAPI()\n`;
    const issue =
      'FastAPI ignores dependency_overrides for sub-dependencies\n\nWith FastAPI 0.65 the override is not used.';
    for (const path of ['fastapi/app.py', 'fastapi/routing.py'])
      expect(reasonsOf(files, issue, path).join(' ')).not.toMatch(/path matches `FastAPI`/);
    expect(ranked(files, issue)[0]).toBe('fastapi/dependencies/utils.py');
  });
});

describe('names that are not names', () => {
  it('reads `image(s)` as a plural, a hex string as no class, and `pkg.const` as no definition of `const`', () => {
    const refs = extractIssueRefs(
      'Crop the input image(s)\n\nThe key A2887D2 of X509Certificate fails, see metagpt.const',
    );
    expect(refs.identifiers).not.toContain('image');
    expect(refs.identifiers).not.toContain('A2887D2');
    expect(refs.identifiers).toContain('X509Certificate');
    const files = {
      ...noise,
      'pkg/helpers.py':
        'def const(value):\n    return value\n\ndef image(path):\n    return path\n',
    };
    const reasons = reasonsOf(
      files,
      'Wrong root\n\nsee metagpt.const and the image(s)',
      'pkg/helpers.py',
    );
    expect(reasons.join(' ')).not.toMatch(/defines `(const|image)`/);
  });

  it('matches a name written in two cases once', () => {
    const files = { ...noise, 'pkg/docker/__init__.py': 'X = 1\n' };
    const reasons = reasonsOf(
      files,
      '`Docker` fails\n\nRunning in `docker`, it says no',
      'pkg/docker/__init__.py',
    );
    expect(reasons.filter((r) => r.startsWith('path matches'))).toHaveLength(1);
  });
});

describe('log lines', () => {
  it('reads `[WARNING]:`, `WARNING:` and `[ERROR]` lines as messages', () => {
    const refs = extractIssueRefs(
      [
        'Noisy run',
        '',
        '[WARNING]: Could not match supplied host pattern, ignoring: web',
        'WARNING: the cache directory is not writable',
        '[ERROR] no inventory was parsed, only implicit localhost is available',
      ].join('\n'),
    );
    expect(refs.messages).toEqual(
      expect.arrayContaining([
        'Could not match supplied host pattern, ignoring: web',
        'the cache directory is not writable',
        'no inventory was parsed, only implicit localhost is available',
      ]),
    );
  });
});

describe('plain title words', () => {
  const files = {
    ...noise,
    'services/ssm/provider.py':
      'class SsmProvider:\n    def get_parameters(self, names):\n        return names\n',
    'services/ssm/__init__.py': '',
    'services/sqs/provider.py':
      'class SqsProvider:\n    def get_parameters(self, names):\n        return names\n',
    'services/sqs/__init__.py': '',
    'shells/fish.py': 'def app_alias(name):\n    return name\n',
    'shells/bash.py': 'def app_alias(name):\n    return name\n',
  };

  it('that name one part point at it, for half a name', () => {
    const issue = 'SSM parameters are not returned\n\nThe `get_parameters` call returns nothing.';
    expect(extractIssueRefs(issue).titleWords).toEqual(['SSM', 'parameters']);
    expect(ranked(files, issue)[0]).toBe('services/ssm/provider.py');
    expect(reasonsOf(files, issue, 'services/ssm/provider.py')).toContain(
      "path matches the title's `SSM`",
    );
    expect(ranked(files, 'Alias breaks in fish\n\n`app_alias` prints nothing')[0]).toBe(
      'shells/fish.py',
    );
  });

  it('that name nothing, or many parts, count nothing', () => {
    const issue =
      'Provider parameters are not returned\n\nThe `get_parameters` call returns nothing.';
    for (const path of ['services/ssm/provider.py', 'services/sqs/provider.py'])
      expect(reasonsOf(files, issue, path).join(' ')).not.toMatch(/title/);
  });
});

describe('file URLs', () => {
  it('are paths: the frames of an ES module trace resolve to the files here', () => {
    const issue = [
      'Large uploads fail',
      '',
      'Error: Cannot create a string longer than 0x1fffffe8 characters',
      'at Buffer.toString (node:buffer:798:17)',
      'at Object.isFormData (file:///mytest/node_modules/axios/lib/utils.js:195:42)',
      'at Object.transformRequest (file:///mytest/node_modules/axios/lib/defaults/index.js:55:30)',
    ].join('\n');
    expect(
      extractIssueRefs(issue)
        .paths.filter((p) => p.trace)
        .map((p) => p.path),
    ).toEqual([
      '/mytest/node_modules/axios/lib/utils.js',
      '/mytest/node_modules/axios/lib/defaults/index.js',
    ]);
    const files = {
      ...noise,
      'lib/utils.js':
        'function isFormData(thing) {\n  return thing.toString() === "[object FormData]";\n}\n',
      'lib/defaults/index.js': 'function transformRequest(data) {\n  return isFormData(data);\n}\n',
    };
    expect(ranked(files, issue)[0]).toBe('lib/utils.js');
  });
});
