import { jobPaths, jobsDir } from '../../../src/git/job-paths.js';

describe('jobPaths', () => {
  it("puts a job's folder under <workdir>/jobs and its worktree under the repository's name", () => {
    expect(jobsDir('/var/autofix')).toBe('/var/autofix/jobs');
    expect(jobPaths('/var/autofix', 'run-1-code', 'acme/demo')).toEqual({
      jobDir: '/var/autofix/jobs/run-1-code',
      worktree: '/var/autofix/jobs/run-1-code/demo',
    });
  });
});
