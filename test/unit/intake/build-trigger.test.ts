import { parseFresh } from '../../../src/intake/admit-trigger.js';
import { replyMarker } from '../../../src/intake/render-replies.js';
import { commentTrigger, labelTrigger } from '../../../src/intake/build-trigger.js';
import { triggerJobId } from '../../../src/intake/trigger-intake.js';

const base = {
  repository: {
    id: 77,
    name: 'app',
    full_name: 'octo/app',
    clone_url: 'https://github.com/octo/app.git',
    default_branch: 'main',
    owner: { login: 'octo' },
  },
  issue: { number: 5, title: 'Bug', body: null, updated_at: '2026-11-23T10:00:00Z' },
  sender: { login: 'maintainer' },
  installation: { id: 9 },
};

describe('trigger identity', () => {
  it('is the same for a redelivery and for the same body re-sent with another delivery id', () => {
    const a = labelTrigger('d-1', { ...base, label: { name: 'autofix' } });
    const b = labelTrigger('d-2', { ...base, label: { name: 'autofix' } });
    expect(a.triggerKey).toBe(b.triggerKey);
    expect(triggerJobId(a.triggerKey)).toBe(triggerJobId(b.triggerKey));
    expect(triggerJobId(a.triggerKey)).not.toContain(':');
  });

  it('differs for a new label event (GitHub moves updated_at), another label or issue, another comment', () => {
    const key = (t: { triggerKey: string }) => t.triggerKey;
    const label = (over: object) =>
      key(labelTrigger('d', { ...base, label: { name: 'autofix' }, ...over }));
    const keys = new Set([
      label({}),
      label({ issue: { ...base.issue, updated_at: '2026-11-23T10:05:00Z' } }),
      label({ issue: { ...base.issue, number: 6 } }),
      label({ label: { name: 'bot-fix' } }),
      key(commentTrigger('d', { ...base, comment: { id: 1, body: '/autofix' } })),
      key(commentTrigger('d', { ...base, comment: { id: 2, body: '/autofix' } })),
    ]);
    expect(keys.size).toBe(6);
  });

  it('falls back to the delivery id when the payload has no updated_at', () => {
    const issue = { number: 5, title: 'Bug' };
    const a = labelTrigger('d-1', { ...base, issue, label: { name: 'autofix' } });
    const b = labelTrigger('d-2', { ...base, issue, label: { name: 'autofix' } });
    expect(a.triggerKey).not.toBe(b.triggerKey);
  });

  it('keeps the comment and marks pull requests', () => {
    const t = commentTrigger('d', {
      ...base,
      issue: { ...base.issue, pull_request: {} },
      comment: { id: 3, body: '/autofix tweak' },
    });
    expect(t).toMatchObject({
      event: 'issue_comment.created',
      comment: { id: 3, body: '/autofix tweak' },
    });
    expect(t.issue.isPullRequest).toBe(true);
  });
});

describe('parseFresh', () => {
  it.each([
    ['fresh', true, ''],
    ['Fresh use the cache', true, 'use the cache'],
    ['fresh\nmore lines', true, 'more lines'],
    ['freshly baked', false, 'freshly baked'],
    ['make it fresh', false, 'make it fresh'],
    ['', false, ''],
  ])('%j → fresh=%s, rest=%j', (text, fresh, rest) => {
    expect(parseFresh(text)).toEqual({ fresh, rest });
  });
});

describe('replyMarker', () => {
  it('cannot be closed early by a label name (the key is hashed)', () => {
    const marker = replyMarker('open-pr:label:1#2:x --> <img src=x>@t');
    expect(marker).toMatch(/^<!-- autofix-reply:[0-9a-f]{24} -->$/);
  });
});
