/**
 * Probot's Octokit as tests use it: no retries of its own (so the queue's retries show) and no
 * throttling (which spaces writes 1 s apart). The function form of `defaults` is needed: Probot
 * passes its own `throttle` options, which win over object-form defaults.
 */
import { ProbotOctokit } from 'probot';
import type { GitHubClient } from '../../src/github/types.js';

export function testOctokit(): typeof ProbotOctokit {
  return ProbotOctokit.defaults((options: Record<string, unknown>) => ({
    ...options,
    retry: { enabled: false },
    throttle: { enabled: false },
  }));
}

/** A token-authenticated client for adapter tests (nock intercepts its requests). */
export function testClient(baseUrl = 'https://api.github.com'): GitHubClient {
  const Octokit = testOctokit();
  return new Octokit({ auth: { token: 'ghs_testtoken000000000000000000000' }, baseUrl } as never);
}
