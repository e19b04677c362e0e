/**
 * A synthetic but realistic JS/TS repository for timing `autofix context` (issue #18): 2,000
 * tracked files, about 18 MB, deterministic (same bytes on every run). Sizes follow a long-tailed
 * distribution (many small modules, a few large ones, a handful of data files close to the map's
 * 256 KiB limit), files import each other, and comments carry some non-ASCII text. A handful of
 * files hold the code the bench's issues are about (`ISSUES`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Bump when the generator's output changes: a cached repository of another version is rebuilt. */
export const GENERATOR_VERSION = 2;

const AREAS = [
  'billing',
  'orders',
  'shipping',
  'accounts',
  'catalog',
  'reports',
  'search',
  'auth',
  'notifications',
  'inventory',
  'pricing',
  'checkout',
];
const LAYERS = ['api', 'services', 'models', 'handlers', 'utils', 'jobs', 'views', 'store'];
const NOUNS = [
  'invoice',
  'order',
  'customer',
  'payment',
  'fee',
  'discount',
  'item',
  'report',
  'user',
  'stock',
  'tax',
  'refund',
  'balance',
  'shipment',
  'coupon',
  'session',
  'token',
  'address',
  'currency',
  'warehouse',
];
const VERBS = [
  'calculate',
  'apply',
  'load',
  'save',
  'validate',
  'format',
  'render',
  'sync',
  'merge',
  'compute',
  'resolve',
  'normalize',
  'fetch',
  'update',
];
const COMMENTS = [
  'Keeps the totals in minor units so that rounding happens once, at the end.',
  'The upstream API answers 429 under load: callers retry with backoff.',
  'Prix en euros (€) : arrondi au centime le plus proche.',
  'Größere Beträge werden in Raten aufgeteilt.',
  '注文の合計金額を計算します。',
  'Legacy behaviour kept for the mobile client (see the migration notes).',
  'Returns undefined when the record is missing instead of throwing.',
  'TODO: move this to the shared validation layer once the schema settles.',
];

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pick = <T>(rand: () => number, items: readonly T[]): T =>
  items[Math.floor(rand() * items.length)] as T;
const cap = (w: string): string => w[0]!.toUpperCase() + w.slice(1);

/** The files the bench's issues point at (path, line, identifier, message). */
export const TARGETS = {
  lateFee: 'src/billing/services/late-fee-calculator.ts',
  currency: 'src/pricing/utils/currency-format.ts',
  session: 'src/auth/store/session-store.ts',
  retry: 'src/notifications/jobs/webhook-retry.ts',
} as const;

const TARGET_SOURCES: Record<string, string> = {
  [TARGETS.lateFee]: `import type { Invoice } from '../models/invoice';

/** Late fee for an overdue invoice: 2% per started week, at most 10%. */
export function calculateLateFee(invoice: Invoice, today: Date): number {
  const overdueDays = Math.floor((today.getTime() - invoice.dueDate.getTime()) / 86_400_000);
  if (overdueDays <= 0) return 0;
  const weeks = Math.ceil(overdueDays / 7);
  const rate = Math.min(0.1, weeks * 0.02);
  return (invoice.amount + invoice.amount * rate) * rate;
}
`,
  [TARGETS.currency]: `const SYMBOLS: Record<string, string> = { EUR: '€', USD: '$', JPY: '¥' };

export function formatCurrency(amountMinor: number, currency: string): string {
  const symbol = SYMBOLS[currency];
  if (!symbol) throw new Error(\`Unknown currency code: \${currency}\`);
  const digits = currency === 'JPY' ? 0 : 2;
  return \`\${symbol}\${(amountMinor / 100).toFixed(digits)}\`;
}
`,
  [TARGETS.session]: `export class SessionStore {
  private readonly sessions = new Map<string, { user: string; expires: number }>();

  get(id: string, now = Date.now()): string | undefined {
    const s = this.sessions.get(id);
    if (!s) return undefined;
    if (s.expires < now) return s.user;
    return s.user;
  }

  put(id: string, user: string, ttlMs: number): void {
    this.sessions.set(id, { user, expires: Date.now() + ttlMs });
  }
}
`,
  [TARGETS.retry]: `import { sleep } from '../../utils/sleep';

export async function deliverWebhook(send: () => Promise<number>, attempts = 5): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    const status = await send();
    if (status < 300) return;
    await sleep(2 ** i * 100);
  }
  throw new Error('webhook delivery failed after retries');
}
`,
};

/** Issue texts of several kinds, each about one target. */
export const ISSUES: { name: string; text: string }[] = [
  {
    name: 'path+line',
    text: `Late fees are charged twice for overdue invoices\n\nSee ${TARGETS.lateFee}:9 — the fee is added to the amount and then charged again.`,
  },
  {
    name: 'identifier',
    text: 'formatCurrency shows JPY with two decimals\n\n`formatCurrency(1234, "JPY")` should print ¥1234, but the amount is divided by 100 first.',
  },
  {
    name: 'words only',
    text: 'Expired sessions still log users in\n\nAfter the session lifetime is over, the user stays logged in until the browser is closed. The session store should treat an expired session as missing.',
  },
  {
    name: 'stack trace',
    text: [
      'Webhook delivery crashes the notification worker',
      '',
      '```',
      'Error: webhook delivery failed after retries',
      `    at deliverWebhook (${TARGETS.retry}:9:9)`,
      '    at processTicksAndRejections (node:internal/process/task_queues:95:5)',
      '    at async NotificationJob.run (src/notifications/jobs/notification-job.ts:41:7)',
      '```',
      '',
      'The worker should mark the delivery as failed instead of crashing; `--max-attempts` is ignored too.',
    ].join('\n'),
  },
  {
    name: 'vague',
    text: 'Checkout is slow for customers with many coupons\n\nApplying a discount coupon to an order with hundreds of items takes several seconds. Probably the discount is recomputed for every item.',
  },
];

function moduleSource(
  rand: () => number,
  index: number,
  targetBytes: number,
  path: string,
): string {
  const area = path.split('/')[1]!;
  const lines: string[] = [`/**`, ` * ${pick(rand, COMMENTS)}`, ` */`];
  const imports = 1 + Math.floor(rand() * 5);
  for (let i = 0; i < imports; i++) {
    const noun = pick(rand, NOUNS);
    lines.push(
      `import { ${pick(rand, VERBS)}${cap(noun)} } from '../${pick(rand, LAYERS)}/${noun}-${pick(rand, VERBS)}-${Math.floor(rand() * 2000)}';`,
    );
  }
  lines.push('');
  let f = 0;
  let size = lines.join('\n').length;
  while (size < targetBytes) {
    const noun = pick(rand, NOUNS);
    const other = pick(rand, NOUNS);
    const name = `${pick(rand, VERBS)}${cap(noun)}${cap(other)}${f === 0 ? '' : f}`;
    const block: string[] = [];
    if (rand() < 0.25) {
      block.push(`export interface ${cap(noun)}${cap(other)}Options${index}_${f} {`);
      const fields = 2 + Math.floor(rand() * 8);
      for (let i = 0; i < fields; i++)
        block.push(`  /** ${pick(rand, COMMENTS)} */`, `  ${pick(rand, NOUNS)}${i}?: number;`);
      block.push('}', '');
    } else if (rand() < 0.2) {
      block.push(`export class ${cap(noun)}${cap(other)}${cap(area)}${index}_${f} {`);
      block.push(`  private readonly cache = new Map<string, number>();`, '');
      const methods = 1 + Math.floor(rand() * 4);
      for (let m = 0; m < methods; m++) {
        block.push(`  ${pick(rand, VERBS)}${cap(pick(rand, NOUNS))}(id: string): number {`);
        block.push(`    const hit = this.cache.get(id);`, `    if (hit !== undefined) return hit;`);
        block.push(`    const value = id.length * ${m + 1};`, `    this.cache.set(id, value);`);
        block.push('    return value;', '  }', '');
      }
      block.push('}', '');
    } else {
      block.push(`/** ${pick(rand, COMMENTS)} */`);
      block.push(
        `export function ${name}(${noun}: Record<string, number>, ${other}Id: string): number {`,
      );
      const body = 3 + Math.floor(rand() * 18);
      for (let b = 0; b < body; b++) {
        const n = pick(rand, NOUNS);
        const r = rand();
        if (r < 0.15)
          block.push(
            `  if (!${noun}.${n}) throw new Error(\`${cap(n)} missing for ${other} \${${other}Id}\`);`,
          );
        else if (r < 0.25) block.push(`  // ${pick(rand, COMMENTS)}`);
        else
          block.push(
            `  const ${n}${b} = (${noun}.${n} ?? 0) * ${(rand() * 100).toFixed(2)}; // ${pick(rand, VERBS)} the ${n}`,
          );
      }
      block.push(`  return Object.values(${noun}).reduce((a, b) => a + b, 0);`, '}', '');
    }
    lines.push(...block);
    size += block.join('\n').length + 1;
    f++;
  }
  return lines.join('\n');
}

function dataFile(rand: () => number, targetBytes: number): string {
  const rows: string[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const row = `  { "id": ${i}, "${pick(rand, NOUNS)}": "${pick(rand, VERBS)}-${Math.floor(rand() * 1e6).toString(36)}", "amount": ${(rand() * 1000).toFixed(2)} }`;
    rows.push(row);
    size += row.length + 2;
  }
  return `[\n${rows.join(',\n')}\n]\n`;
}

/**
 * Files of the repository: path → content. Each module overshoots its size target by part of a
 * block, so the default target gives 18.0 MB.
 */
export function syntheticFiles(count = 2000, totalBytes = 16_800_000): Map<string, string> {
  const rand = prng(18_2026);
  const files = new Map<string, string>(Object.entries(TARGET_SOURCES));
  files.set(
    'README.md',
    '# Shop\n\nA shop backend: billing, orders, shipping, checkout.\n\nRun `npm test`.\n',
  );
  files.set(
    'package.json',
    `${JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module' }, null, 2)}\n`,
  );
  const data = 12;
  const dataBytes = 200_000;
  const modules = count - files.size - data;
  // Long-tailed sizes (log-normal), scaled so that the total comes close to `totalBytes`.
  const raw = Array.from({ length: modules }, () => {
    const u = Math.max(1e-9, rand());
    const v = rand();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.exp(z * 0.9);
  });
  const scale = (totalBytes - data * dataBytes) / raw.reduce((a, b) => a + b, 0);
  for (let i = 0; i < data; i++)
    files.set(
      `src/${pick(rand, AREAS)}/fixtures/${pick(rand, NOUNS)}-samples-${i}.json`,
      dataFile(rand, dataBytes),
    );
  for (let i = 0; files.size < count; i++) {
    const area = pick(rand, AREAS);
    const layer = pick(rand, LAYERS);
    const ext = rand() < 0.8 ? 'ts' : 'js';
    const path = `src/${area}/${layer}/${pick(rand, NOUNS)}-${pick(rand, VERBS)}-${i}.${ext}`;
    if (files.has(path)) continue;
    const target = Math.min(240_000, Math.max(300, Math.round(raw[i % raw.length]! * scale)));
    files.set(path, moduleSource(rand, i, target, path));
  }
  return files;
}

/**
 * The repository at `dir`, committed with git; reused when `dir` already holds this generator
 * version's repository (marker `.git/bench-synthetic-repo.json`, outside the work tree).
 */
export function ensureSyntheticRepo(dir: string): { files: number; bytes: number } {
  const marker = join(dir, '.git', 'bench-synthetic-repo.json');
  if (existsSync(marker)) {
    const saved = JSON.parse(readFileSync(marker, 'utf8')) as {
      version: number;
      files: number;
      bytes: number;
    };
    if (saved.version === GENERATOR_VERSION) return { files: saved.files, bytes: saved.bytes };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = syntheticFiles();
  let bytes = 0;
  for (const [path, content] of files) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    bytes += Buffer.byteLength(content);
  }
  const git = (...args: string[]): void => {
    execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'synthetic');
  writeFileSync(
    marker,
    JSON.stringify({ version: GENERATOR_VERSION, files: files.size, bytes }, null, 1),
  );
  return { files: files.size, bytes };
}
