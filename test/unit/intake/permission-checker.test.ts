import type nock from 'nock';
import { silentLogger } from '../../../src/logger.js';
import { createPermissionChecker } from '../../../src/intake/permission-checker.js';
import { testClient } from '../../helpers/github-client.js';
import { useHttpMock } from '../../helpers/http-mock.js';

const http = useHttpMock();

const repo = { owner: 'octo', repo: 'app' };
const permission = (user: string): nock.Interceptor =>
  http.api().get(`/repos/octo/app/collaborators/${user}/permission`);

describe('createPermissionChecker', () => {
  it.each([
    ['admin', 'admin', true],
    ['maintain', 'write', true],
    ['write', 'write', true],
    ['triage', 'read', false],
    ['read', 'read', false],
  ])('role %s (permission %s) may trigger: %s', async (role, legacy, allowed) => {
    permission('u').reply(200, { permission: legacy, role_name: role });
    expect(await createPermissionChecker().allows(testClient(), repo, 'u', silentLogger)).toBe(
      allowed,
    );
  });

  it('falls back to the legacy permission field', async () => {
    permission('u').reply(200, { permission: 'write' });
    expect(await createPermissionChecker().allows(testClient(), repo, 'u', silentLogger)).toBe(
      true,
    );
  });

  it('throws when GitHub fails (admission retries), says no when it refuses, and asks again next time', async () => {
    const checker = createPermissionChecker();
    permission('u').reply(500, {});
    await expect(checker.allows(testClient(), repo, 'u', silentLogger)).rejects.toMatchObject({
      status: 500,
    });
    await new Promise((r) => setImmediate(r));
    permission('u').reply(404, { message: 'Not Found' });
    expect(await checker.allows(testClient(), repo, 'u', silentLogger)).toBe(false);
    await new Promise((r) => setImmediate(r));
    permission('u').reply(200, { permission: 'admin', role_name: 'admin' });
    expect(await checker.allows(testClient(), repo, 'u', silentLogger)).toBe(true);
  });
});
