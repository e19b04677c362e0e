import type { TemplateData } from '../llm/render-agent.js';
import type { IssueInput } from './ports.js';

/** The issue placeholders every agent shares. */
export function issueData(issue: IssueInput): TemplateData {
  return {
    repository: issue.repository,
    issue_number: issue.number,
    issue_title: issue.title,
    issue_body: issue.body || '(empty)',
    issue_comments:
      issue.comments && issue.comments.length > 0 ? issue.comments.join('\n\n---\n\n') : '(none)',
    instructions: issue.instructions?.trim() || '(none)',
    repo_guidance: issue.guidance?.trim() || '(none)',
  };
}
