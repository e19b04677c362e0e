import type nock from 'nock';
import { createRepoConfigLoader } from '../../../src/intake/repo-config-loader.js';
import { testClient } from '../../helpers/github-client.js';
import { useHttpMock } from '../../helpers/http-mock.js';

const http = useHttpMock();

const repo = { owner: 'octo', repo: 'app' };
const file = (text: string) => ({
  type: 'file',
  encoding: 'base64',
  content: Buffer.from(text).toString('base64'),
});
const contents = (): nock.Interceptor =>
  http.api().get('/repos/octo/app/contents/.github%2Fautofix.yml').query({ ref: 'main' });

describe('createRepoConfigLoader', () => {
  it('uses the defaults when the file does not exist, and caches the answer', async () => {
    contents().reply(404, { message: 'Not Found' });
    const loader = createRepoConfigLoader();
    const first = await loader.load(testClient(), repo, 'main');
    const second = await loader.load(testClient(), repo, 'main');
    expect(first).toEqual(second);
    expect(first.ok && first.config.trigger_label).toBe('autofix');
  });

  it('reads and validates the file from the default branch', async () => {
    contents().reply(200, file('trigger_label: please-fix\ndraft_prs: true\n'));
    const loaded = await createRepoConfigLoader().load(testClient(), repo, 'main');
    expect(loaded.ok && loaded.config).toMatchObject({
      trigger_label: 'please-fix',
      draft_prs: true,
    });
  });

  it('reports an invalid file with the trigger it meant, so intake can answer the right event', async () => {
    contents().reply(200, file('trigger_label: please-fix\nrisk_threshold: EXTREME\n'));
    const loaded = await createRepoConfigLoader().load(testClient(), repo, 'main');
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.triggerLabel).toBe('please-fix');
    expect(loaded.command).toBe('/autofix');
    expect(loaded.error.code).toBe('CONFIG_INVALID');
  });

  it('lets a GitHub outage through (the webhook answers 503) without caching it', async () => {
    contents().reply(502, {});
    const loader = createRepoConfigLoader();
    await expect(loader.load(testClient(), repo, 'main')).rejects.toMatchObject({ status: 502 });
    contents().reply(404, {});
    await expect(loader.load(testClient(), repo, 'main')).resolves.toMatchObject({ ok: true });
  });
});
