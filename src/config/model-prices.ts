/**
 * Model prices the operator adds or replaces (`MODEL_PRICES_FILE`): a JSON object
 * `{ "<model prefix>": { "inputPerMillion": n, "outputPerMillion": n } }`, USD per million tokens.
 * Read and checked once at start, every bad entry reported at once with the file's path, like
 * the rest of the environment (env.ts). The defaults and the lookup are in `llm/prices.ts`.
 */
import { readFileSync } from 'node:fs';

export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

const FIELDS = ['inputPerMillion', 'outputPerMillion'] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with one entry (`"gpt-x": …`), or nothing. */
function entryProblems(prefix: string, value: unknown): string[] {
  const name = JSON.stringify(prefix);
  if (prefix.trim() === '') return [`${name}: a model prefix must not be empty`];
  if (!isObject(value))
    return [`${name}: must be an object { "inputPerMillion": n, "outputPerMillion": n }`];
  const problems: string[] = [];
  for (const field of FIELDS) {
    const n = value[field];
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0)
      problems.push(
        `${name}.${field}: must be a number of USD per million tokens, 0 or more (got ${JSON.stringify(n) ?? 'nothing'})`,
      );
  }
  for (const key of Object.keys(value).filter((k) => !(FIELDS as readonly string[]).includes(k)))
    problems.push(`${name}.${key}: unknown field (only inputPerMillion and outputPerMillion)`);
  return problems;
}

/** The table `text` holds; problems (without the file's name) pushed to `problems`. */
export function parseModelPrices(text: string, problems: string[]): PriceTable {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    problems.push(`is not JSON: ${(err as Error).message}`);
    return {};
  }
  if (!isObject(raw)) {
    problems.push('must be a JSON object of model prefixes');
    return {};
  }
  const table: Record<string, ModelPrice> = {};
  for (const [prefix, value] of Object.entries(raw)) {
    const found = entryProblems(prefix, value);
    problems.push(...found);
    if (found.length === 0) {
      const price = value as ModelPrice;
      table[prefix] = {
        inputPerMillion: price.inputPerMillion,
        outputPerMillion: price.outputPerMillion,
      };
    }
  }
  return table;
}

/**
 * The table of the file `MODEL_PRICES_FILE` names ({} when unset). Each problem goes to `problems`
 * as `MODEL_PRICES_FILE: <path>: <entry>: <what is wrong>`.
 */
export function readModelPricesFile(path: string | undefined, problems: string[]): PriceTable {
  if (path === undefined) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    problems.push(`MODEL_PRICES_FILE: cannot read ${path}: ${(err as Error).message}`);
    return {};
  }
  const found: string[] = [];
  const table = parseModelPrices(text, found);
  problems.push(...found.map((p) => `MODEL_PRICES_FILE: ${path}: ${p}`));
  return table;
}
