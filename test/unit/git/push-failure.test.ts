import { pushFailure } from '../../../src/git/push.js';

describe('pushFailure', () => {
  it('maps a hook or permission rejection to PERMISSION_DENIED with the remote message', () => {
    const err = pushFailure(
      'To https://github.com/o/r.git\n!\tabc:refs/heads/autofix/fix/1-x\t[remote rejected] (refusing to allow a GitHub App to create or update workflow `.github/workflows/ci.yml` without `workflows` permission)\nDone\n',
      'remote: error: GH013: Repository rule violations found\nerror: failed to push some refs\n',
      'autofix/fix/1-x',
    );
    expect(err.code).toBe('PERMISSION_DENIED');
    expect(err.message).toContain('workflows');
    expect(err.message).toContain('GH013');
  });

  it('maps a failed lease to GIT_CONFLICT', () => {
    const err = pushFailure(
      '!\tabc:refs/heads/autofix/x\t[rejected] (stale info)\n',
      '',
      'autofix/x',
    );
    expect(err.code).toBe('GIT_CONFLICT');
  });

  it('maps HTTP 403 to PERMISSION_DENIED and anything else to a retryable INTERNAL', () => {
    expect(
      pushFailure('', 'fatal: unable to access: The requested URL returned error: 403\n', 'b').code,
    ).toBe('PERMISSION_DENIED');
    const other = pushFailure('', 'fatal: unable to connect\n', 'b');
    expect(other.code).toBe('INTERNAL');
    expect(other.recoverable).toBe(true);
  });
});
