/**
 * Server-rendered HTML without a template engine: `html` escapes every interpolated value (text
 * and attribute values alike) unless it is already `SafeHtml`, so a value can never end an
 * attribute or open a tag, whatever quotes or brackets it holds.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for an HTML text node or a quoted attribute value (single or double quotes). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ENTITIES[c] ?? c);
}

type Interpolated =
  SafeHtml | string | number | boolean | null | undefined | readonly Interpolated[];

function render(value: Interpolated): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly Interpolated[]).map(render).join('');
  return escapeHtml(String(value as string | number | boolean));
}

export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** A complete page: UTF-8, no external resources, no scripts. */
export function page(title: string, body: SafeHtml): string {
  return html`<!DOCTYPE html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <style>
          body {
            font:
              15px/1.5 system-ui,
              sans-serif;
            max-width: 60rem;
            margin: 2rem auto;
            padding: 0 1rem;
            color: #1f2328;
          }
          table {
            border-collapse: collapse;
            margin: 0.5rem 0 1.5rem;
          }
          th,
          td {
            border: 1px solid #d0d7de;
            padding: 0.25rem 0.6rem;
            text-align: left;
          }
          th {
            background: #f6f8fa;
          }
          code {
            background: #f6f8fa;
            padding: 0 0.25rem;
          }
          .note {
            background: #fff8c5;
            border: 1px solid #d4a72c;
            padding: 0.5rem 0.75rem;
          }
          button {
            font-size: 1rem;
            padding: 0.4rem 1rem;
          }
        </style>
      </head>
      <body>
        ${body}
      </body>
    </html> `.value;
}
