/**
 * GitHub's REST API mocked with nock for a test file, strictly (Renovate's `httpMock` is the
 * model): no request leaves the process, and a test fails when an expected request was never
 * made *or* a request was made that no mock expected — also when the code under test caught the
 * error (GitHub calls here are often best effort and would hide it).
 */
import nock from 'nock';

export const GITHUB_API = 'https://api.github.com';

export interface HttpMock {
  /** A nock scope on the API, for the requests this test expects. */
  api(): nock.Scope;
}

export function useHttpMock(base = GITHUB_API): HttpMock {
  const unexpected: string[] = [];
  const onNoMatch = (req: {
    method?: string;
    path?: string;
    options?: { path?: string };
  }): void => {
    unexpected.push(`${req.method ?? '?'} ${req.path ?? req.options?.path ?? '?'}`);
  };
  beforeAll(() => {
    nock.disableNetConnect();
    nock.emitter.on('no match', onNoMatch);
  });
  afterEach(() => {
    const pending = nock.pendingMocks();
    const extra = unexpected.splice(0);
    nock.cleanAll();
    expect({ pending, unexpected: extra }).toEqual({ pending: [], unexpected: [] });
  });
  afterAll(() => {
    nock.emitter.removeListener('no match', onNoMatch);
    nock.enableNetConnect();
    // Its interceptors patch node:http for the whole worker: later test files must get the real one.
    nock.restore();
  });
  return { api: () => nock(base) };
}
