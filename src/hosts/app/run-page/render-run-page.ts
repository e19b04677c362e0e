/**
 * The run page (pure): a `Run` record → one HTML document. Every string of the record passes
 * through the redactor first (`redactDeep`), then through the HTML escaping of `html`; long
 * texts are cropped after redaction. The failure's root cause or the parking's reason comes
 * first, then the stages with their cost, then what the run decided and what it showed.
 */
import { redactDeep } from '../../../artifacts/redact-deep.js';
import type { Run } from '../../../runs/run-record.js';
import { html } from '../html.js';
import { runPageDocument } from './run-page-document.js';
import {
  diffSection,
  reproductionSection,
  transcriptSection,
  validationSection,
} from './run-page-evidence.js';
import { at } from './run-page-format.js';
import { outcomeSection, stagesSection } from './run-page-summary.js';
import { planSection, rankedSection, triageSection } from './run-page-work.js';

const TRIGGERS: Record<Run['trigger']['kind'], string> = {
  label: 'the trigger label',
  'issue-comment': 'a command on the issue',
  'pr-feedback': 'feedback on the pull request',
  'ci-failure': 'a CI failure on the pull request',
  verify: 'a re-run of the verification',
};

export function renderRunPage(record: Run, redact: (text: string) => string): string {
  const run = redactDeep(record, redact);
  const where = `${run.repository.fullName}#${run.issue.number}`;
  return runPageDocument(
    `${where} · run ${run.runId} · Autofix`,
    html`<header>
        <h1>${where}: ${run.issue.title}</h1>
        <p class="meta">
          Run <code>${run.runId}</code> · started by
          ${TRIGGERS[run.trigger.kind] ?? run.trigger.kind} from ${run.sender} · accepted
          ${at(run.acceptedAt)} · last change ${at(run.updatedAt)}
        </p>
      </header>
      ${outcomeSection(run)} ${stagesSection(run)} ${rankedSection(run)} ${triageSection(run)}
      ${planSection(run)} ${reproductionSection(run)} ${validationSection(run)} ${diffSection(run)}
      ${transcriptSection(run)}`,
  );
}
