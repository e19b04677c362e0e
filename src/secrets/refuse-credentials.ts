/**
 * The gate before anything leaves the machine: a change that adds something credential-shaped
 * stops with `SECRET_IN_CHANGE`, naming each file, line and rule, never the value. The values it
 * found are handed to the redactor first, so no log, comment or artifact written after the stop
 * shows them either.
 */
import type { Redactor } from '../artifacts/redact.js';
import { AutofixError } from '../errors.js';
import {
  describeFindings,
  findCredentials,
  type ChangedText,
  type CredentialFinding,
} from './find-credentials.js';

export function credentialsError(findings: readonly CredentialFinding[]): AutofixError {
  const n = findings.length;
  return new AutofixError(
    'SECRET_IN_CHANGE',
    `the change adds what looks like a credential (${n} finding${n === 1 ? '' : 's'}); nothing was committed or pushed\n` +
      `${describeFindings(findings)}\n` +
      'The values are not shown anywhere.',
    {
      details: { findings: findings.map((f) => ({ path: f.path, line: f.line, rule: f.rule })) },
      recoverable: false,
    },
  );
}

/** Throws `SECRET_IN_CHANGE` when the change adds a credential; resolves otherwise. */
export async function refuseCredentials(
  files: readonly ChangedText[],
  redact: Redactor,
): Promise<void> {
  const { findings, values } = await findCredentials(files, (text) => redact.find(text));
  if (findings.length === 0) return;
  redact.add(...values);
  throw credentialsError(findings);
}
