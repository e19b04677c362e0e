/**
 * The setup page (`/` and `/probot` in setup mode): a form that POSTs the app manifest to GitHub's
 * "new GitHub App" page. We render it ourselves instead of Probot's view, which puts the manifest
 * JSON into a single-quoted attribute without escaping: one apostrophe in app.yml ended the
 * attribute and GitHub received truncated JSON. Here every value is HTML-escaped (html.ts), so
 * the browser posts exactly `JSON.stringify(manifest)` whatever app.yml holds.
 *
 * The manifest follows Probot's (app.yml wins over the generated fields) with two corrections:
 * the webhook URL is the path webhooks are accepted at (`/api/github/webhooks`, not the site
 * root) and there is no `version` field. `redirect_url` is `/probot/setup`, where Probot's setup
 * app exchanges the code for the App's credentials and writes them to the env file
 * (`AUTOFIX_ENV_FILE`, else `.env`).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { HttpHandler } from '../../http-handler.js';
import { escapeHtml, html, page } from './html.js';

export const WEBHOOK_PATH = '/api/github/webhooks';
export const MANIFEST_REDIRECT_PATH = '/probot/setup';

/** app.yml of the directory `serve` runs in (the operator's copy), else the one we ship. */
export function findAppYml(cwd = process.cwd()): string | undefined {
  const candidates = [
    join(cwd, 'app.yml'),
    // src/hosts/app/ (ts-jest) and dist/src/hosts/app/ (the built CLI) → the package root.
    fileURLToPath(new URL('../../../app.yml', import.meta.url)),
    fileURLToPath(new URL('../../../../app.yml', import.meta.url)),
  ];
  return candidates.find((path) => existsSync(path));
}

export function readAppYml(path: string | undefined): Record<string, unknown> {
  if (!path) return {};
  const parsed = parseYaml(readFileSync(path, 'utf8')) as unknown;
  return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
}

/** The GitHub App manifest for a server reachable at `baseUrl`. */
export function buildManifest(options: {
  appYml: Record<string, unknown>;
  baseUrl: string;
  /** WEBHOOK_PROXY_URL: GitHub delivers there and the relay forwards to us. */
  webhookProxyUrl?: string;
}): Record<string, unknown> {
  const { appYml, baseUrl } = options;
  const hook =
    appYml.hook_attributes && typeof appYml.hook_attributes === 'object'
      ? (appYml.hook_attributes as Record<string, unknown>)
      : {};
  return {
    name: 'Autofix',
    public: false,
    redirect_url: `${baseUrl}${MANIFEST_REDIRECT_PATH}`,
    ...appYml,
    hook_attributes: { url: options.webhookProxyUrl ?? `${baseUrl}${WEBHOOK_PATH}`, ...hook },
  };
}

const first = (value: string | string[] | undefined): string | undefined =>
  (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim() || undefined;

/** The URL the browser used to reach us (a reverse proxy's X-Forwarded-* headers first). */
export function requestBaseUrl(req: IncomingMessage, fallbackHost: string): string {
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const forwardedProto = first(req.headers['x-forwarded-proto']);
  const protocol =
    forwardedProto === 'https' || forwardedProto === 'http'
      ? forwardedProto
      : encrypted
        ? 'https'
        : 'http';
  const host = first(req.headers['x-forwarded-host']) ?? req.headers.host ?? fallbackHost;
  return `${protocol}://${host}`;
}

/** GitHub cannot deliver webhooks to these hosts. */
function unreachableFromGitHub(url: string): boolean {
  if (!URL.canParse(url)) return true;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^(127|10|0)\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    !host.includes('.')
  );
}

export function renderSetupPage(options: {
  manifest: Record<string, unknown>;
  /** GitHub's "register a new GitHub App" URL (github.com, GHE, or an organization's). */
  createAppUrl: string;
  /** Where the credentials will be written (`AUTOFIX_ENV_FILE`, else `.env`). */
  envFile?: string;
}): string {
  const { manifest } = options;
  const hook = (manifest.hook_attributes ?? {}) as { url?: unknown };
  const hookUrl = typeof hook.url === 'string' ? hook.url : '';
  const name = typeof manifest.name === 'string' ? manifest.name : 'Autofix';
  const description = typeof manifest.description === 'string' ? manifest.description : '';
  return page(
    `Register ${name}`,
    html`<h1>Register ${name} on GitHub</h1>
      <p>${description}</p>
      <p>
        No GitHub App credentials are configured yet. The button below registers a new GitHub App
        from <code>app.yml</code>; GitHub then sends you back here and the App's ID, private key and
        webhook secret are written to <code id="env-file">${options.envFile ?? '.env'}</code>.
        Restart <code>autofix serve</code> afterwards.
      </p>
      <p>Webhooks will be delivered to <code id="webhook-url">${hookUrl}</code>.</p>
      ${
        unreachableFromGitHub(hookUrl)
          ? html`<p class="note" id="tunnel-note">
              GitHub cannot reach this address. For local development set
              <code>WEBHOOK_PROXY_URL</code> to a channel from
              <a href="https://smee.io/new">smee.io/new</a> and restart before registering (README:
              “Local development: webhook tunnel”); on a server, open this page through its public
              URL.
            </p>`
          : ''
      }
      <form id="register" action="${options.createAppUrl}" method="post">
        <input type="hidden" name="manifest" id="manifest" value="${JSON.stringify(manifest)}" />
        <button type="submit">Register GitHub App</button>
        <a href="/probot/import">or use an existing GitHub App</a>
      </form>
      <p><a href="/metrics">/metrics</a> · <a href="/healthz">/healthz</a></p>`,
  );
}

/** Answers `GET /` and `GET /probot` with the setup page. */
export function setupPage(options: {
  appYmlPath: string | undefined;
  createAppUrl: () => string;
  webhookProxyUrl: string | undefined;
  fallbackHost: () => string;
  /** Where the credentials will be written, shown on the page. */
  envFile?: string;
}): HttpHandler {
  return (req, res) => {
    const path = req.url?.split('?')[0];
    if (req.method !== 'GET' || (path !== '/' && path !== '/probot')) return false;
    const manifest = buildManifest({
      // Read per request: an edit of app.yml shows without a restart.
      appYml: readAppYml(options.appYmlPath),
      baseUrl: requestBaseUrl(req, options.fallbackHost()),
      ...(options.webhookProxyUrl ? { webhookProxyUrl: options.webhookProxyUrl } : {}),
    });
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(
        renderSetupPage({
          manifest,
          createAppUrl: options.createAppUrl(),
          ...(options.envFile ? { envFile: options.envFile } : {}),
        }),
      );
    return true;
  };
}

/** Probot's "use an existing GitHub App" view; it interpolates its values unescaped. */
export type ImportView = (values: {
  name: string;
  GH_HOST: string;
  WEBHOOK_PROXY_URL: string;
}) => string;

/**
 * Answers `GET /probot/import`, Probot's page for an App registered already: its step 1 ("Replace
 * your app's Webhook URL with …") showed WEBHOOK_PROXY_URL, or nothing when unset, since Probot
 * renders it once at start. Here the URL is the one the manifest would register (the relay's
 * channel, else this server's `/api/github/webhooks`), per request. The form still posts to
 * Probot's setup app.
 */
export function importPage(options: {
  appYmlPath: string | undefined;
  createAppUrl: () => string;
  webhookProxyUrl: string | undefined;
  fallbackHost: () => string;
  view: ImportView;
}): HttpHandler {
  return (req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/probot/import') return false;
    const manifest = buildManifest({
      appYml: readAppYml(options.appYmlPath),
      baseUrl: requestBaseUrl(req, options.fallbackHost()),
      ...(options.webhookProxyUrl ? { webhookProxyUrl: options.webhookProxyUrl } : {}),
    });
    const hook = (manifest.hook_attributes ?? {}) as { url?: unknown };
    const createAppUrl = options.createAppUrl();
    const page = options.view({
      name: escapeHtml(typeof manifest.name === 'string' ? manifest.name : 'Autofix'),
      GH_HOST: escapeHtml(URL.canParse(createAppUrl) ? new URL(createAppUrl).origin : ''),
      WEBHOOK_PROXY_URL: escapeHtml(typeof hook.url === 'string' ? hook.url : ''),
    });
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(page);
    return true;
  };
}
