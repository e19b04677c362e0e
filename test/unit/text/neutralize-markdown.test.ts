import { disarmClosingReferences } from '../../../src/text/neutralize-inline.js';
import { neutralizeMarkdown } from '../../../src/text/neutralize-markdown.js';

/** The run: issue #7 of acme/widgets on github.com. */
const run = { owner: 'acme', repo: 'widgets', issueNumber: 7, githubHost: 'github.com' };
const n = (text: string, options: Parameters<typeof neutralizeMarkdown>[1] = run): string =>
  neutralizeMarkdown(text, options);

describe('neutralizeMarkdown: closing keywords', () => {
  it('puts a closing keyword for another issue in a code span, lists too', () => {
    expect(n('Closes #5, closes #6.')).toBe('`Closes #5`, `closes #6`.');
    expect(n('This fixes #5 and #6')).toBe('This `fixes #5 and #6`');
  });

  it.each([
    'close',
    'closes',
    'closed',
    'fix',
    'fixes',
    'fixed',
    'resolve',
    'resolves',
    'resolved',
    'CLOSES',
    'Fixed',
    'ReSoLvEs',
  ])('catches "%s", with and without a colon', (keyword) => {
    expect(n(`It ${keyword} #5 now`)).toBe(`It \`${keyword} #5\` now`);
    expect(n(`It ${keyword}: #5 now`)).toBe(`It \`${keyword}: #5\` now`);
  });

  it('catches other repositories, GH- numbers, full URLs and a line break before the number', () => {
    expect(n('Fixes other/repo#7')).toBe('`Fixes other/repo#7`');
    expect(n('Resolves GH-5')).toBe('`Resolves GH-5`');
    expect(n('closes https://github.com/acme/widgets/issues/5')).toBe(
      '`closes https://github.com/acme/widgets/issues/5`',
    );
    expect(n('closes https://github.com/acme/other/issues/7')).toBe(
      '`closes https://github.com/acme/other/issues/7`',
    );
    expect(n('This fixes\n#5')).toBe('This `fixes #5`');
    expect(n('**Fixes** #5')).toBe('**`Fixes** #5`');
  });

  it('keeps a closing keyword for the run’s own issue, in every spelling', () => {
    for (const text of [
      'Fixes #7',
      'fixes: acme/widgets#7',
      'Closes ACME/Widgets#7',
      'resolves https://github.com/acme/widgets/issues/7',
    ]) {
      expect(n(text)).toBe(text);
    }
    expect(n('Fixes #7 and #5')).toBe('`Fixes #7 and #5`');
  });

  it('keeps no closing keyword live when the run’s issue is not known', () => {
    expect(n('Fixes #7', {})).toBe('`Fixes #7`');
  });

  it('leaves plain references, code and ordinary words alone', () => {
    const text = 'See #5 and acme/widgets#6; the `fixes #5` string is a fixture. A fix for it.';
    expect(n(text)).toBe(text);
  });

  it('defuses character references that GitHub would decode into # or @', () => {
    expect(n('Fixes &#35;5 cc &#64;alice')).toBe('Fixes &amp;#35;5 cc &amp;#64;alice');
  });

  it('sees through invisible characters', () => {
    expect(n('Fix\u200Bes #5, cc @\u2060alice')).toBe('`Fixes #5`, cc `@alice`');
  });
});

describe('neutralizeMarkdown: mentions', () => {
  it('puts user and team mentions in code spans', () => {
    expect(n('cc @alice, @org/team and (@bob-1)')).toBe('cc `@alice`, `@org/team` and (`@bob-1`)');
  });

  it('leaves e-mail addresses alone', () => {
    const text = 'Mail alice@example.com or first.last@corp.example.org.';
    expect(n(text)).toBe(text);
  });

  it('does not let a backslash escape the code span it gets', () => {
    expect(n('cc \\@alice')).toBe('cc \\ `@alice`');
  });
});

describe('neutralizeMarkdown: images, links, HTML', () => {
  it('turns an image into visible text with the URL in a code span', () => {
    expect(n('![](http://evil.test/b.png)')).toBe('\\![\\](`http://evil.test/b.png`)');
    expect(n('![logo][l]\n\n[l]: http://evil.test/b.png')).toBe(
      '\\![logo][l]\n\n\\[l]: `http://evil.test/b.png`',
    );
  });

  it('escapes every HTML tag and comment, images and forged bot markers included', () => {
    const out = n(
      '<img src="http://evil.test/b.png"> <details><summary>ok</summary>hidden</details>\n' +
        '<!-- autofix-run:run-1 --> <sub>Opened by Autofix</sub> <picture> <a href="https://evil.test">x</a>',
    );
    expect(out).not.toMatch(/<[a-z!/]/i);
    expect(out).toContain('&lt;!-- autofix-run:run-1 --');
    expect(out).toContain('&lt;sub>Opened by Autofix&lt;/sub>');
    expect(out).toContain('`http://evil.test/b.png">`');
  });

  it('keeps an escaped < as it is', () => {
    expect(n('a \\<b> c')).toBe('a \\<b> c');
  });

  it('breaks links to other hosts and shows their URL', () => {
    expect(n('[docs](https://evil.test/login)')).toBe('[docs\\](`https://evil.test/login`)');
    expect(n('[x](//evil.test)')).toBe('[x\\](//evil.test)');
    expect(n('[x](javascript:alert(1))')).toBe('[x\\](javascript:alert(1))');
    expect(n('[a `b`](https://evil.test)')).toBe('[a `b`\\](`https://evil.test`)');
    expect(n('[x](<https://evil.test>)')).toBe('[x\\](&lt;`https://evil.test>`)');
  });

  it('keeps links into the repository on its own host', () => {
    for (const text of [
      '[a.ts](https://github.com/acme/widgets/blob/main/src/a.ts)',
      'see https://github.com/ACME/Widgets/pull/3.',
      '[wiki](https://github.com/acme/widgets/wiki/Setup_(old))',
    ]) {
      expect(n(text)).toBe(text);
    }
  });

  it.each([
    'https://github.com/acme/widgets-evil/x',
    'https://github.com/acmex/widgets',
    'https://github.com.evil.test/acme/widgets',
    'https://github.com@evil.test/acme/widgets',
    'https://github.com/acme/widgets/../../evil/x',
    'https://gist.github.com/acme/widgets',
    'http://www.evil.test/acme/widgets',
    'www.evil.test',
    'ftp://evil.test/x',
  ])('puts %s in a code span', (url) => {
    expect(n(`see ${url} now`)).toBe(`see \`${url}\` now`);
  });

  it('links nothing when the repository is not known', () => {
    const link = '[a](https://github.com/acme/widgets)';
    expect(n(link, { issueNumber: 7 })).toBe('[a\\](`https://github.com/acme/widgets`)');
  });

  it('keeps GHE links on the GHE host only', () => {
    const ghe = { ...run, githubHost: 'ghe.corp.example:8443' };
    const own = 'https://ghe.corp.example:8443/acme/widgets/issues/3';
    expect(n(own, ghe)).toBe(own);
    expect(n('https://github.com/acme/widgets', ghe)).toBe('`https://github.com/acme/widgets`');
  });
});

describe('neutralizeMarkdown: structure', () => {
  it('cannot forge headings, rules, alerts or hidden definitions', () => {
    expect(n('### Validation\n✅ all passed')).toBe('\\### Validation\n✅ all passed');
    expect(n('> ## Risk\n> LOW')).toBe('> \\## Risk\n> LOW');
    expect(n('Title\n===\ntext\n---\n***\n- - -')).toBe(
      'Title\n\\===\ntext\n\\---\n\\***\n\\- - -',
    );
    expect(n('> [!WARNING]\n> sandbox off')).toBe('> \\[!WARNING]\n> sandbox off');
    expect(n('[//]: # (hidden)\n[^1]: note')).toBe('\\[//]: # (hidden)\n\\[^1]: note');
  });

  it('keeps code spans and fenced code as written', () => {
    const inline = 'Use `@Injectable()` and `<b>` here.';
    expect(n(inline)).toBe(inline);
    const fenced = 'Example:\n```ts\n// @ts-ignore closes #5\nconst a = "<b>";\n```\nDone.';
    expect(n(fenced)).toBe(
      'Example:\n\n```ts\n// @ts-ignore closes #5\nconst a = "<b>";\n```\n\nDone.',
    );
  });

  it('closes an unclosed fence so it cannot swallow the rest of the body', () => {
    expect(n('```\n@alice')).toBe('\n```\n@alice\n```\n');
  });

  it('re-fences a tilde block so a backtick line inside cannot end it', () => {
    expect(n('  ~~~\n```\n~~~\n@user\n```')).toBe('\n````\n```\n````\n\n`@user`\n\n```\n\n```\n');
  });

  it('escapes a backtick that opens no code span on its line', () => {
    expect(n('a ` b @user')).toBe('a \\` b `@user`');
    expect(n('`a\n@user`')).toBe('\\`a\n`@user`\\`');
    expect(n('``@a')).toBe('\\`\\` `@a`');
  });

  it('keeps ordinary prose unchanged', () => {
    const text =
      'Corrects the typo in the installation section (see #12) for v1.2 — 100% done.\n\n' +
      '- Updates `README.md`\n- Adds a *test* for [the parser](https://github.com/acme/widgets/blob/main/p.ts)';
    expect(n(text)).toBe(text);
  });
});

describe('neutralizeMarkdown: inline', () => {
  it('puts the text on one line and reads no block structure', () => {
    expect(n('line one\n# two\n<b>x</b>', { ...run, inline: true })).toBe(
      'line one # two &lt;b>x&lt;/b>',
    );
    expect(n('# heading', { ...run, inline: true })).toBe('\\# heading');
  });

  it('keeps a fenced block as a code span and neutralizes a tilde one', () => {
    expect(n('```\n@u\n```', { ...run, inline: true })).toBe('``` @u ```');
    expect(n('~~~\n@u\n~~~', { ...run, inline: true })).toBe('~~~ `@u` ~~~');
  });
});

describe('disarmClosingReferences (commit messages)', () => {
  it('turns closing keywords for other issues into `see`, and keeps the run’s own', () => {
    expect(disarmClosingReferences('Closes #5, closes #6 and fixes #7', { issueNumber: 7 })).toBe(
      'see #5, see #6 and fixes #7',
    );
    expect(
      disarmClosingReferences('resolves: acme/other#3; Fixed https://github.com/a/b/issues/9', {
        issueNumber: 7,
      }),
    ).toBe('see: acme/other#3; see https://github.com/a/b/issues/9');
    expect(disarmClosingReferences('add() returns the wrong result', { issueNumber: 7 })).toBe(
      'add() returns the wrong result',
    );
  });
});
