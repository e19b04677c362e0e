/**
 * Gettext catalogs (`.po`, `.pot`) are a fifth of a Django project's bytes and say nothing about
 * where code goes wrong: they are read only for an issue about translations (or one that names a
 * catalog), and otherwise listed as skipped, with the reason.
 */
import { buildRepoMap, readPolicy } from '../../../src/context/build-repo-map.js';
import { issueIsAboutTranslations } from '../../../src/context/classify-path.js';
import { explainContext, formatContextReport } from '../../../src/context/explain-context.js';
import { prepareContext } from '../../../src/pipeline/prepare-context.js';
import { createRepo, type TestRepo } from '../../helpers/repo-builder.js';

const catalog = (word: string): string =>
  `msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgid "Save draft"\nmsgstr "${word}"\n`;

let repo: TestRepo;
beforeAll(() => {
  repo = createRepo({
    files: {
      'app/forms.py': 'def save_draft(page):\n    """Save draft of a page."""\n    return page\n',
      'app/locale/fr/LC_MESSAGES/django.po': catalog('Enregistrer le brouillon'),
      'app/locale/de/LC_MESSAGES/django.po': catalog('Entwurf speichern'),
      'app/locale/django.pot': catalog(''),
    },
  });
});
afterAll(() => repo.cleanup());

const CODE_ISSUE = 'Save draft loses the page title when the form has errors';
const TRANSLATION_ISSUE =
  'The French translation of "Save draft" is wrong: it should say "Enregistrer"';

/** The context the pipeline's stages get for an issue titled `title`. */
const stageContext = (title: string): ReturnType<typeof prepareContext> =>
  prepareContext({ worktree: repo.dir }, { repository: 'demo', number: 1, title, body: '' });

describe('translation catalogs', () => {
  it('tells an issue about translations from one about code', () => {
    for (const text of [
      TRANSLATION_ISSUE,
      'Missing German translations in the admin',
      'makemessages does not pick up strings in templates',
      'Typo in app/locale/de/LC_MESSAGES/django.po',
      'ngettext_lazy returns the wrong plural form',
      'Please update the i18n catalogs',
    ])
      expect([text, issueIsAboutTranslations(text)]).toEqual([text, true]);
    for (const text of [
      CODE_ISSUE,
      'The locale argument of format_date is ignored',
      'Crash in report.py',
    ])
      expect([text, issueIsAboutTranslations(text)]).toEqual([text, false]);
  });

  it('leaves the catalogs out for a code issue and says so', async () => {
    const map = await buildRepoMap(repo.dir, readPolicy(CODE_ISSUE));
    expect(map.files.map((f) => f.path)).toEqual(['app/forms.py']);
    expect(map.skipped).toEqual([
      { path: 'app/locale/de/LC_MESSAGES/django.po', reason: 'translations' },
      { path: 'app/locale/django.pot', reason: 'translations' },
      { path: 'app/locale/fr/LC_MESSAGES/django.po', reason: 'translations' },
    ]);
    const report = await explainContext(repo.dir, CODE_ISSUE, { budget: 4_000 });
    expect(report.ranking.map((r) => r.path)).toEqual(['app/forms.py']);
    expect(formatContextReport(report)).toContain(
      'not read: 3 translations (read only for an issue about translations)',
    );
    // The pipeline's stages read the same way.
    const context = await stageContext(CODE_ISSUE);
    expect(context.codeContext).toContain('app/forms.py');
    expect(context.codeContext).not.toContain('Enregistrer');
  });

  it('reads and ranks them for an issue about a translation', async () => {
    const report = await explainContext(repo.dir, TRANSLATION_ISSUE, { budget: 4_000 });
    expect(report.skipped).toEqual({});
    expect(report.ranking[0]?.path).toBe('app/locale/fr/LC_MESSAGES/django.po');
    const context = await stageContext(TRANSLATION_ISSUE);
    expect(context.codeContext).toContain('Enregistrer le brouillon');
  });
});
