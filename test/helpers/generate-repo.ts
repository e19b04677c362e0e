/**
 * Writes a synthetic repository of many source files (deterministic: same count, same bytes)
 * for context-ranking and token-budget tests. One file, `TARGET`, holds the function the test
 * issues are about; a few others call it, and many share its vocabulary.
 */
import { createRepo, writeFiles } from './repo-builder.js';

export const TARGET = 'src/billing/invoices/late-fee-calculator.ts';
export const TARGET_FUNCTION = 'calculateLateFee';

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
];
const SUBS = [
  'invoices',
  'payments',
  'handlers',
  'models',
  'services',
  'utils',
  'api',
  'jobs',
  'views',
  'tests',
];
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
];

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)] as T;
}

const cap = (w: string): string => w[0]!.toUpperCase() + w.slice(1);

function sourceFile(rand: () => number, index: number): string {
  const lines: string[] = [
    `// Module ${index}: generated for tests.`,
    "import { db } from '../../db';",
    '',
  ];
  const functions = 2 + Math.floor(rand() * 6);
  for (let f = 0; f < functions; f++) {
    const name = `${pick(rand, VERBS)}${cap(pick(rand, NOUNS))}${cap(pick(rand, NOUNS))}${index}_${f}`;
    lines.push(`export function ${name}(input: Record<string, number>): number {`);
    const body = 4 + Math.floor(rand() * 20);
    for (let b = 0; b < body; b++) {
      const noun = pick(rand, NOUNS);
      lines.push(
        `  const ${noun}${b} = (input.${noun} ?? 0) * ${b + 1}; // ${pick(rand, VERBS)} the ${noun} ${pick(rand, NOUNS)}`,
      );
    }
    lines.push(`  return db.total(${functions});`, '}', '');
  }
  return lines.join('\n');
}

const TARGET_SOURCE = `import type { Invoice } from '../models/invoice';

/** Late fee for an overdue invoice: 2% per started week, at most 10%. */
export function ${TARGET_FUNCTION}(invoice: Invoice, today: Date): number {
  const overdueDays = Math.floor((today.getTime() - invoice.dueDate.getTime()) / 86_400_000);
  if (overdueDays <= 0) return 0;
  const weeks = Math.ceil(overdueDays / 7);
  const rate = Math.min(0.1, weeks * 0.02);
  // BUG: the fee is added to the amount and then charged again on top.
  return (invoice.amount + invoice.amount * rate) * rate;
}
`;

export interface GeneratedRepo {
  files: number;
  bytes: number;
}

/** Writes `count` files under `root` (plus TARGET) and, with `git`, commits them (repo-builder). */
export function generateRepo(
  root: string,
  count = 2000,
  options: { git?: boolean } = {},
): Promise<GeneratedRepo> {
  const rand = prng(20250101);
  const files = new Map<string, string>();
  files.set(TARGET, TARGET_SOURCE);
  files.set(
    'src/billing/invoices/overdue-job.ts',
    `import { ${TARGET_FUNCTION} } from './late-fee-calculator';\nexport function run(invoices) {\n  return invoices.map((i) => ${TARGET_FUNCTION}(i, new Date()));\n}\n`,
  );
  files.set('README.md', '# Shop\n\nA generated shop backend: billing, orders, shipping.\n');
  for (let i = 0; files.size < count; i++) {
    const area = pick(rand, AREAS);
    const sub = pick(rand, SUBS);
    const name = `${pick(rand, NOUNS)}-${pick(rand, VERBS)}-${i}`;
    const ext = rand() < 0.85 ? 'ts' : rand() < 0.5 ? 'md' : 'json';
    const path = `src/${area}/${sub}/${name}.${ext}`;
    const text =
      ext === 'ts'
        ? sourceFile(rand, i)
        : ext === 'md'
          ? `# ${cap(name)}\n\nNotes about ${pick(rand, NOUNS)} and ${pick(rand, NOUNS)} handling.\n`
          : `${JSON.stringify({ id: i, kind: pick(rand, NOUNS), fee: i % 7 }, null, 2)}\n`;
    files.set(path, text);
  }
  let bytes = 0;
  for (const text of files.values()) bytes += Buffer.byteLength(text);
  const map = Object.fromEntries(files);
  if (options.git) createRepo({ root, files: map, message: 'generated' });
  else writeFiles(root, map);
  return Promise.resolve({ files: files.size, bytes });
}
