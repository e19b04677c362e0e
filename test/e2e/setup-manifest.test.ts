/**
 * The manifest the setup page makes the browser POST to GitHub, read from the page's HTML as a
 * browser would (an attribute value in either quote style, character references decoded): valid
 * JSON whatever app.yml holds (apostrophes, quotes, brackets, ampersands), webhooks at
 * /api/github/webhooks, the redirect at /probot/setup; WEBHOOK_PROXY_URL when set.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { freePort, REPO_ROOT, startCli, waitFor } from '../helpers/cli.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** HTML attribute value → text (the subset of character references servers emit). */
function decodeAttribute(raw: string): string {
  return raw.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return String.fromCodePoint(code);
    }
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** The value of the form field named `manifest`, as the browser would submit it. */
function manifestFieldValue(html: string): string {
  const tag = /<(?:input|button)\b[^>]*\bname=["']?manifest["']?[^>]*>/i.exec(html)?.[0];
  if (!tag) throw new Error('no form field named manifest on the setup page');
  const value = /\bvalue=(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
  if (!value) throw new Error(`the manifest field has no value: ${tag.slice(0, 200)}`);
  return decodeAttribute(value[1] ?? value[2] ?? value[3] ?? '');
}

async function setupPageManifest(
  appYml: string,
  env: Record<string, string> = {},
): Promise<{ manifest: Record<string, unknown>; base: string }> {
  const port = await freePort();
  const cwd = mkdtempSync(join(tmpdir(), 'autofix-manifest-'));
  writeFileSync(join(cwd, 'app.yml'), appYml);
  const { child, output } = startCli(['serve'], {
    cwd,
    env: { PORT: String(port), HOST: '127.0.0.1', NO_SMEE_SETUP: 'true', ...env },
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    const html = await waitFor(async () => {
      const res = await fetch(`${base}/`);
      return res.ok ? res.text() : undefined;
    }).catch((err: Error) => {
      throw new Error(`${err.message}\n${output()}`);
    });
    const value = manifestFieldValue(html);
    let manifest: Record<string, unknown>;
    try {
      manifest = JSON.parse(value) as Record<string, unknown>;
    } catch (err) {
      throw new Error(`the posted manifest is not JSON (${(err as Error).message}): ${value}`);
    }
    return { manifest, base };
  } finally {
    child.kill('SIGTERM');
    rmSync(cwd, { recursive: true, force: true });
  }
}

describe('setup page manifest (what the browser posts to GitHub)', () => {
  const shipped = readFileSync(join(REPO_ROOT, 'app.yml'), 'utf8');

  it('is app.yml as valid JSON, apostrophe and all, with webhooks at /api/github/webhooks', async () => {
    expect(shipped).toMatch(/description:.*'/); // the shipped app.yml holds an apostrophe
    const { manifest, base } = await setupPageManifest(shipped);
    const yml = parseYaml(shipped) as Record<string, unknown>;
    expect(manifest.description).toBe(yml.description);
    expect(manifest.default_permissions).toEqual(yml.default_permissions);
    expect(manifest.hook_attributes).toEqual({ url: `${base}/api/github/webhooks` });
    expect(manifest.redirect_url).toBe(`${base}/probot/setup`);
  });

  it('survives quotes, brackets and ampersands anywhere in app.yml', async () => {
    const nasty = `It's "quoted" </button><script>alert(1)</script> & &amp; &#39; \` done`;
    const yml = `${shipped
      .replace(/^name: .*$/m, `name: "O'Brien's <fix> & co"`)
      .replace(/^description: .*$/m, `description: ${JSON.stringify(nasty)}`)}`;
    const { manifest } = await setupPageManifest(yml);
    expect(manifest.name).toBe("O'Brien's <fix> & co");
    expect(manifest.description).toBe(nasty);
  });

  it('registers the WEBHOOK_PROXY_URL channel as the webhook URL when it is set', async () => {
    const channel = 'https://smee.io/AbCdEf0123456789';
    const { manifest } = await setupPageManifest(shipped, { WEBHOOK_PROXY_URL: channel });
    expect(manifest.hook_attributes).toEqual({ url: channel });
  });

  it('takes the package app.yml when the working directory has none', async () => {
    const port = await freePort();
    const cwd = mkdtempSync(join(tmpdir(), 'autofix-manifest-'));
    const { child } = startCli(['serve'], {
      cwd,
      env: { PORT: String(port), HOST: '127.0.0.1', NO_SMEE_SETUP: 'true' },
    });
    try {
      const html = await waitFor(async () => {
        const res = await fetch(`http://127.0.0.1:${port}/`);
        return res.ok ? res.text() : undefined;
      });
      const manifest = JSON.parse(manifestFieldValue(html)) as Record<string, unknown>;
      expect(manifest.default_events).toEqual(
        (parseYaml(shipped) as { default_events: unknown }).default_events,
      );
      const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('autofix_process_cpu');
    } finally {
      child.kill('SIGTERM');
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
