import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSettings } from '../../../src/config/env.js';
import { parseRepoConfig } from '../../../src/config/repo-config.js';
import { AutofixError } from '../../../src/errors.js';
import { createUsageTracker } from '../../../src/llm/usage-tracker.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'autofix-prices-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function pricesFile(content: unknown): string {
  const path = join(dir, 'prices.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

function problemsOf(env: Record<string, string>): string[] {
  try {
    readSettings(env);
  } catch (err) {
    if (err instanceof AutofixError) return (err.details as { problems: string[] }).problems;
    throw err;
  }
  throw new Error('expected CONFIG_INVALID');
}

describe('the money settings of the environment', () => {
  it('reads the caps as USD', () => {
    const s = readSettings({
      MAX_RUN_COST_USD: '2.50',
      INSTALLATION_DAILY_COST_USD: '50',
      INSTALLATION_MONTHLY_COST_USD: '500',
      REQUESTER_DAILY_COST_USD: '10',
    });
    expect(s.costCaps).toEqual({
      maxRunUsd: 2.5,
      installationDailyUsd: 50,
      installationMonthlyUsd: 500,
      requesterDailyUsd: 10,
    });
    expect(readSettings({}).costCaps).toEqual({});
    expect(readSettings({}).modelPrices).toEqual({});
  });

  it('refuses a cap that is not a positive amount, by name', () => {
    expect(problemsOf({ MAX_RUN_COST_USD: '0', REQUESTER_DAILY_COST_USD: '$5' })).toEqual([
      'MAX_RUN_COST_USD: must be an amount of USD greater than 0, e.g. 2.50 (got "0")',
      'REQUESTER_DAILY_COST_USD: must be an amount of USD greater than 0, e.g. 2.50 (got "$5")',
    ]);
  });

  it("adds the price file's models to the table the usage tracker prices with", () => {
    const path = pricesFile({ 'qwen2.5-coder': { inputPerMillion: 0.2, outputPerMillion: 0.6 } });
    const s = readSettings({ MODEL_PRICES_FILE: path });
    expect(s.modelPrices).toEqual({
      'qwen2.5-coder': { inputPerMillion: 0.2, outputPerMillion: 0.6 },
    });
    const usage = createUsageTracker({ prices: s.modelPrices });
    expect(usage.costOf('qwen2.5-coder:32b', 1_000_000, 1_000_000)).toEqual({
      cost: 0.8,
      priced: true,
    });
    expect(usage.costOf('gpt-4o-mini', 1_000_000, 0).priced).toBe(true);
  });

  it("names the file and every bad entry at once, with the environment's other problems", () => {
    const path = pricesFile({
      'good-model': { inputPerMillion: 1, outputPerMillion: 2 },
      'gpt-x': { inputPerMillion: '0.4', outputPerMillion: -1 },
      'llama-3': { inputPerMillion: 1, outputPerMilion: 2 },
      mistral: 3,
    });
    expect(problemsOf({ MODEL_PRICES_FILE: path, PORT: 'x' })).toEqual([
      'PORT: must be a port number 1-65535 (got "x")',
      `MODEL_PRICES_FILE: ${path}: "gpt-x".inputPerMillion: must be a number of USD per million tokens, 0 or more (got "0.4")`,
      `MODEL_PRICES_FILE: ${path}: "gpt-x".outputPerMillion: must be a number of USD per million tokens, 0 or more (got -1)`,
      `MODEL_PRICES_FILE: ${path}: "llama-3".outputPerMillion: must be a number of USD per million tokens, 0 or more (got nothing)`,
      `MODEL_PRICES_FILE: ${path}: "llama-3".outputPerMilion: unknown field (only inputPerMillion and outputPerMillion)`,
      `MODEL_PRICES_FILE: ${path}: "mistral": must be an object { "inputPerMillion": n, "outputPerMillion": n }`,
    ]);
  });

  it('says when the file is missing, not JSON, or not an object', () => {
    expect(problemsOf({ MODEL_PRICES_FILE: join(dir, 'none.json') })[0]).toMatch(
      /^MODEL_PRICES_FILE: cannot read .*none\.json: ENOENT/,
    );
    const broken = pricesFile('{ "gpt-x": ');
    expect(problemsOf({ MODEL_PRICES_FILE: broken })[0]).toMatch(
      new RegExp(`^MODEL_PRICES_FILE: ${broken}: is not JSON: `),
    );
    const list = pricesFile([1, 2]);
    expect(problemsOf({ MODEL_PRICES_FILE: list })).toEqual([
      `MODEL_PRICES_FILE: ${list}: must be a JSON object of model prefixes`,
    ]);
  });
});

describe('cost_budget_usd in .github/autofix.yml', () => {
  it('is optional and a positive amount', () => {
    expect(parseRepoConfig('').cost_budget_usd).toBeUndefined();
    expect(parseRepoConfig('cost_budget_usd: 1.5').cost_budget_usd).toBe(1.5);
    expect(() => parseRepoConfig('cost_budget_usd: 0')).toThrow(/`cost_budget_usd`/);
  });
});
