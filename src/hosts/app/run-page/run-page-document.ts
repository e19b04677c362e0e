/**
 * The run page's document: one inline style sheet, allowed by its hash in a Content-Security-Policy
 * that allows nothing else (no scripts, images, frames, forms, fonts or connections), so even a
 * value that escaped the escaping could not run or load anything.
 */
import { createHash } from 'node:crypto';
import { html, SafeHtml } from '../html.js';

const STYLE = [
  'body{font:15px/1.5 system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#1f2328}',
  'h1{font-size:1.5rem;margin-bottom:0.25rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #d0d7de}',
  'table{border-collapse:collapse;margin:0.5rem 0 1rem}',
  'th,td{border:1px solid #d0d7de;padding:0.25rem 0.6rem;text-align:left;vertical-align:top}',
  'th{background:#f6f8fa}td.n{text-align:right;font-variant-numeric:tabular-nums}',
  'tr.total td{font-weight:600;background:#f6f8fa}',
  'code{background:#f6f8fa;padding:0 0.25rem}',
  'pre{background:#f6f8fa;border:1px solid #d0d7de;padding:0.5rem;overflow:auto;max-height:32rem;white-space:pre;font-size:13px}',
  '.meta{color:#59636e}.note{color:#59636e;font-style:italic}',
  '.outcome{border:1px solid;border-radius:6px;padding:0.5rem 1rem;margin:1rem 0}.outcome h2{margin-top:0.5rem;border:0}',
  '.succeeded{background:#dafbe1;border-color:#4ac26b}.failed{background:#ffebe9;border-color:#ff8182}',
  '.stopped,.abandoned,.running{background:#f6f8fa;border-color:#d0d7de}.parked{background:#fff8c5;border-color:#d4a72c}',
  '.pass{color:#1a7f37;font-weight:600}.fail{color:#d1242f;font-weight:600}',
  '.add{color:#1a7f37;background:#e6ffec}.del{color:#d1242f;background:#ffebe9}.hunk{color:#0550ae}',
].join('\n');

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');
/** Built outside the template: a formatter must not change the text the hash is over. */
const STYLE_TAG = new SafeHtml(`<style>${STYLE}</style>`);

/** The run page's Content-Security-Policy: its own style sheet, nothing else. */
export const RUN_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${STYLE_HASH}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every answer under /runs/ (a page or a 404): the signature is in the URL. */
export const RUN_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': RUN_PAGE_CSP,
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
} as const;

export function runPageDocument(title: string, body: SafeHtml): string {
  return html`<!DOCTYPE html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="robots" content="noindex, nofollow" />
        <title>${title}</title>
        ${STYLE_TAG}
      </head>
      <body>
        ${body}
      </body>
    </html>`.value;
}
