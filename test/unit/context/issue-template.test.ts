/**
 * The repository's issue template is no evidence (issue #18): its headings, checkbox labels and
 * prefilled instructions are in every issue, and their words pull the files that share them up.
 */
import {
  isIssueTemplate,
  templateLine,
  withoutTemplateText,
} from '../../../src/context/issue-template.js';
import { rankFiles } from '../../../src/context/rank-files.js';
import { mapOf } from './map-of.js';

const FORM = [
  'name: Bug Report',
  'description: Report a bug in the plotting library.',
  'title: "[Bug]: "',
  'body:',
  '  - type: textarea',
  '    attributes:',
  '      label: Bug summary',
  '      description: Describe the bug in 1-2 short sentences',
  '  - type: textarea',
  '    attributes:',
  '      label: Code for reproduction',
  '      render: python',
  '  - type: input',
  '    attributes:',
  '      label: Operating system and installation method',
  '  - type: checkboxes',
  '    attributes:',
  '      label: Checklist',
  '      options:',
  '        - label: I have checked the installation guide and the documentation of the package',
  '        - label: "I have searched the existing issues, including closed ones"',
].join('\n');

const MARKDOWN = [
  '---',
  'name: Bug report',
  'about: Create a report to help us improve',
  '---',
  '**Describe the bug**',
  'A clear and concise description of what the bug is.',
  '',
  '**Environment (please complete the following information):**',
  ' - OS: [e.g. iOS]',
].join('\n');

describe('isIssueTemplate', () => {
  it.each([
    ['.github/ISSUE_TEMPLATE/bug_report.yml', true],
    ['.github/ISSUE_TEMPLATE/feature.md', true],
    ['.github/issue_template.md', true],
    ['ISSUE_TEMPLATE.md', true],
    ['docs/ISSUE_TEMPLATE.markdown', true],
    ['.github/PULL_REQUEST_TEMPLATE.md', false],
    ['src/issue_template.py', false],
    ['.github/ISSUE_TEMPLATE/sub/deeper.md', false],
  ])('%s → %s', (path, expected) => {
    expect(isIssueTemplate(path)).toBe(expected);
  });
});

describe('templateLine', () => {
  it('compares a form label with the heading and checkbox it becomes', () => {
    expect(templateLine('      label: Bug summary')).toBe('bug summary');
    expect(templateLine('### Bug summary')).toBe('bug summary');
    expect(templateLine('        - label: "I have searched the existing issues"')).toBe(
      'i have searched the existing issues',
    );
    expect(templateLine('- [X] I have searched the existing issues')).toBe(
      'i have searched the existing issues',
    );
    expect(templateLine('**Describe the bug**')).toBe('describe the bug');
  });
});

describe('withoutTemplateText', () => {
  const issue = [
    '[Bug]: legend loses its title',
    '### Bug summary',
    'When the legend is redrawn its title vanishes.',
    '### Code for reproduction',
    '```python',
    '# Checklist',
    'ax.legend(title="x")',
    '```',
    '### Operating system and installation method',
    'Ubuntu, pip',
    '### Checklist',
    '- [X] I have checked the installation guide and the documentation of the package',
    '- [x] I have searched the existing issues, including closed ones',
  ].join('\n');

  it("drops the form's headings and checkbox labels, keeps the reporter's lines", () => {
    expect(withoutTemplateText(issue, [FORM]).split('\n')).toEqual([
      '[Bug]: legend loses its title',
      'When the legend is redrawn its title vanishes.',
      '```python',
      '# Checklist',
      'ax.legend(title="x")',
      '```',
      'Ubuntu, pip',
    ]);
  });

  it('drops the instructions a Markdown template prefilled; keeps short answers', () => {
    const md = [
      'Crash on save',
      '**Describe the bug**',
      'A clear and concise description of what the bug is.',
      'Saving a figure twice crashes.',
      '**Environment (please complete the following information):**',
      ' - OS: Linux',
      'macOS',
    ].join('\n');
    expect(withoutTemplateText(md, [MARKDOWN, 'macOS\n'])).toBe(
      ['Crash on save', 'Saving a figure twice crashes.', ' - OS: Linux', 'macOS'].join('\n'),
    );
  });

  it('keeps the title even when it is a template line, and everything without templates', () => {
    expect(withoutTemplateText('Bug summary\nBug summary', [FORM])).toBe('Bug summary');
    expect(withoutTemplateText(issue, [])).toBe(issue);
  });

  it("is what the ranking reads: the template's words no longer rank the files sharing them", () => {
    const files = {
      '.github/ISSUE_TEMPLATE/bug_report.yml': FORM,
      'plotlib/legend.py': 'class Legend:\n    def draw(self):\n        self.title.draw()\n',
      'plotlib/installation.py':
        '"""Checks the installation: the operating system, the package and its documentation."""\n' +
        'def check_installation_guide():\n    return "installation method checked"\n',
      ...Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [
          `plotlib/part${i}.py`,
          `def part${i}():\n    pass\n`,
        ]),
      ),
    };
    const top = rankFiles(mapOf(files), issue).files.map((f) => f.path);
    expect(top[0]).toBe('plotlib/legend.py');
    expect(top).not.toContain('plotlib/installation.py');
  });
});
