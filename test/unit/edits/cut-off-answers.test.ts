import { parseUdiff } from '../../../src/edits/parse-udiff.js';
import type { AnswerCut } from '../../../src/edits/types.js';
import { AutofixError } from '../../../src/errors.js';

/**
 * Issue #33: an answer cut off at the model's output limit is refused with where it stops, never
 * applied as far as it goes; a complete answer of the same shapes still applies exactly.
 */

const SESSIONS = `import os
from .compat import to_native_string


class Session:
    def __init__(self):
        self.headers = {}
        self.trust_env = True

    def request(self, method, url, params=None, data=None):
        """Constructs a Request, prepares it and sends it."""
        if isinstance(method, bytes):
            method = method.decode("ascii")
        req = Request(
            method=method.upper(),
            url=url,
            params=params or {},
            data=data,
        )
        prep = self.prepare_request(req)
        return self.send(prep)

    def send(self, request):
        """Sends a PreparedRequest."""
        if self.trust_env:
            request.headers.update(self.headers)
        return self.adapter.send(request)
`;

const FIXED = SESSIONS.replace(
  '        if isinstance(method, bytes):\n            method = method.decode("ascii")\n',
  '        method = to_native_string(method)\n',
);

const HEAD = ['--- a/requests/sessions.py', '+++ b/requests/sessions.py'];
const HUNK = [
  '',
  '     def request(self, method, url, params=None, data=None):',
  '         """Constructs a Request, prepares it and sends it."""',
  '-        if isinstance(method, bytes):',
  '-            method = method.decode("ascii")',
  '+        method = to_native_string(method)',
  '         req = Request(',
  '             method=method.upper(),',
  '             url=url,',
].map((l) => (l === '' ? ' ' : l));
const NUMBERED = '@@ -9,8 +9,7 @@ class Session:';

const FILES: Record<string, string> = {
  'requests/sessions.py': SESSIONS,
  'requests/old.py': 'def legacy():\n    return 1\n\n\ndef older():\n    return 2\n',
};
const readFile = (path: string) => Promise.resolve(FILES[path]);

const diff = (header: string, lines: readonly string[], end = '\n'): string =>
  [...HEAD, header, ...lines].join('\n') + end;

async function refusal(text: string): Promise<AutofixError> {
  try {
    await parseUdiff(text, readFile);
  } catch (err) {
    expect(err).toBeInstanceOf(AutofixError);
    return err as AutofixError;
  }
  throw new Error('expected a refusal');
}

const cutOf = (err: AutofixError): AnswerCut | undefined =>
  (err.details as { cut?: AnswerCut } | undefined)?.cut;

const contentOf = async (text: string): Promise<string | undefined> =>
  (await parseUdiff(text, readFile)).changeSet.files[0]?.content;

describe('a cut-off udiff answer', () => {
  it.each([
    ['numbered', NUMBERED],
    ['bare', '@@ @@'],
  ])(
    'is refused when it stops after a removed line whose replacement never came (%s header)',
    async (_, header) => {
      const err = await refusal(diff(header, HUNK.slice(0, 5)));
      expect(err.code).toBe('INVALID_DIFF');
      expect(err.message).toContain('requests/sessions.py: hunk 1');
      expect(err.message).toContain('looks cut off: it ends with a removed ("-") line');
      expect(err.message).toContain('line 3 of your answer is its header');
      expect(err.message).toContain('-            method = method.decode("ascii")');
      expect(cutOf(err)).toEqual(
        expect.objectContaining({ path: 'requests/sessions.py', hunk: 1, line: 3 }),
      );
    },
  );

  it('is refused when it stops after the `if` line, which would leave its body hanging', async () => {
    const err = await refusal(diff('@@ @@', HUNK.slice(0, 4)));
    expect(err.message).toContain('looks cut off');
    expect(err.message).toContain('-        if isinstance(method, bytes):');
  });

  it.each([
    ['numbered', NUMBERED],
    ['bare', '@@ @@'],
  ])('is refused when it stops in the middle of an added line (%s header)', async (_, header) => {
    const text = diff(header, [...HUNK.slice(0, 5), '+        method = to_native_'], '');
    const err = await refusal(text);
    expect(err.message).toContain('it ends with an added ("+") line while the file goes on');
    expect(err.message).toContain('+        method = to_native_');
  });

  it.each([
    ['after the indentation of its last added line', '@@ @@', '+        '],
    [
      'after the indentation of its last added line, counts adding up',
      '@@ -25,3 +25,4 @@',
      '+        ',
    ],
    [
      'mid-line, short of what its header counts',
      '@@ -25,3 +25,5 @@',
      '+        return self.adapter.se',
    ],
  ])('is refused at the end of the file when it stops %s', async (_, header, last) => {
    const text = [
      ...HEAD,
      header,
      '         if self.trust_env:',
      '             request.headers.update(self.headers)',
      '-        return self.adapter.send(request)',
      '+        response = self.adapter.send(request)',
      last,
    ].join('\n');
    const err = await refusal(text);
    expect(err.message).toContain('looks cut off');
  });

  it('is refused when fewer unchanged lines follow the change than it keeps before it', async () => {
    const err = await refusal(diff('@@ @@', HUNK.slice(0, 7)));
    expect(err.message).toContain(
      'only 1 unchanged line follows its last change, where the diff keeps 3 and the file goes on',
    );
  });

  it('is refused when it stops in the middle of an unchanged line, however much context came before', async () => {
    const text = diff('@@ @@', [...HUNK, '             params=par'], '');
    const err = await refusal(text);
    expect(err.message).toContain('it stops in the middle of an unchanged line');
  });

  it('is refused when it stops after the indentation of an unchanged line', async () => {
    const err = await refusal(diff('@@ @@', [...HUNK, '        '], ''));
    expect(err.message).toContain('it stops in the middle of an unchanged line');
  });

  it('says the header promised more lines than arrived', async () => {
    const err = await refusal(diff(NUMBERED, HUNK.slice(0, 5)));
    expect(err.message).toContain('its header promises more lines than arrived');
  });

  it('is refused when the last hunk stops before any change', async () => {
    const err = await refusal(diff('@@ @@', HUNK.slice(0, 2)));
    expect(err.message).toContain('it has no added or removed line');
  });

  it('is refused when a ``` fence it opened is never closed', async () => {
    const err = await refusal(`Here is the fix:\n\n\`\`\`diff\n${diff(NUMBERED, HUNK)}`);
    expect(err.message).toContain('it ends inside the ``` block opened at line 3');
    expect(cutOf(err)?.line).toBe(3);
  });

  it('is refused when it stops after the header of the next file', async () => {
    const text = `${diff(NUMBERED, HUNK)}--- a/requests/old.py\n+++ b/requests/old.py\n`;
    const err = await refusal(text);
    expect(err.message).toContain(
      'it ends with the header of `b/requests/old.py` (line 13) and no hunk after it',
    );
  });

  it('is refused when a deletion stops before the end of the file', async () => {
    const text = '--- a/requests/old.py\n+++ /dev/null\n@@ -1,6 +0,0 @@\n-def legacy():\n-    ret';
    const err = await refusal(text);
    expect(err.message).toContain('the deletion looks cut off');
    expect(cutOf(err)?.path).toBe('requests/old.py');
  });

  it('is refused when a deletion stops in the middle of its last line', async () => {
    const text = [
      '--- a/requests/old.py',
      '+++ /dev/null',
      '@@ -1,6 +0,0 @@',
      '-def legacy():',
      '-    return 1',
      '-',
      '-',
      '-def older():',
      '-    retu',
    ].join('\n');
    const err = await refusal(text);
    expect(err.message).toContain('its last removed line stops in the middle of the line');
  });

  it('is refused when a new file stops mid-line inside an open bracket', async () => {
    const text = [
      '--- /dev/null',
      '+++ b/requests/hooks.py',
      '@@ -0,0 +1,5 @@',
      '+def dispatch_hook(key, hooks, data):',
      '+    hooks = hooks or {}',
      '+    for hook in hooks.get(key, [',
    ].join('\n');
    const err = await refusal(text);
    expect(err.message).toContain('the new file looks cut off');
    expect(err.message).toContain('its header promises 5 lines, 3 arrived');
  });

  it('is refused when it stops after removing the last line of the file with nothing in its place', async () => {
    const text = [
      ...HEAD,
      '@@ @@',
      '         if self.trust_env:',
      '             request.headers.update(self.headers)',
      '-        return self.adapter.send(request)',
    ].join('\n');
    const err = await refusal(text);
    expect(err.message).toContain('it ends with removed lines that nothing replaces');
  });
});

describe('a complete udiff answer of the same shapes', () => {
  it('applies exactly with its full trailing context, with or without a final newline', async () => {
    expect(await contentOf(diff(NUMBERED, HUNK))).toBe(FIXED);
    expect(await contentOf(diff('@@ @@', HUNK, ''))).toBe(FIXED);
    expect(await contentOf(`\`\`\`diff\n${diff('@@ @@', HUNK)}\`\`\`\n`)).toBe(FIXED);
  });

  it('applies a last hunk without trailing context when its counts add up', async () => {
    expect(await contentOf(diff('@@ -9,5 +9,4 @@', HUNK.slice(0, 6)))).toBe(FIXED);
  });

  it('applies a last hunk that ends at the end of the file', async () => {
    const text = [
      ...HEAD,
      '@@ @@',
      '         if self.trust_env:',
      '             request.headers.update(self.headers)',
      '-        return self.adapter.send(request)',
      '+        return self.adapter.send(request, timeout=30)',
    ].join('\n');
    expect(await contentOf(text)).toBe(
      SESSIONS.replace('send(request)\n', 'send(request, timeout=30)\n'),
    );
  });

  it('applies the removal of the last lines of a file when its counts add up', async () => {
    const text = [
      ...HEAD,
      '@@ -25,3 +25,2 @@',
      '         if self.trust_env:',
      '             request.headers.update(self.headers)',
      '-        return self.adapter.send(request)',
    ].join('\n');
    expect(await contentOf(text)).toBe(
      SESSIONS.replace('        return self.adapter.send(request)\n', ''),
    );
  });

  it('applies a new file whose last line has no newline', async () => {
    const text =
      '--- /dev/null\n+++ b/requests/hooks.py\n@@ -0,0 +1,2 @@\n+HOOKS = ["response"]\n+DEFAULT = {}';
    expect(await contentOf(text)).toBe('HOOKS = ["response"]\nDEFAULT = {}\n');
  });
});
