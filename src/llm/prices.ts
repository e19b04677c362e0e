/**
 * USD per million tokens by model-name prefix; the longest matching prefix wins. Approximate
 * list prices, good enough to show the order of magnitude of a run; override per deployment.
 * Models not listed (local servers, new names) cost 0 and are reported as unpriced. The operator
 * adds or replaces entries with `MODEL_PRICES_FILE` (`config/model-prices.ts`).
 */
import type { ModelPrice, PriceTable } from '../config/model-prices.js';

export type { ModelPrice, PriceTable };

const p = (inputPerMillion: number, outputPerMillion: number): ModelPrice => ({
  inputPerMillion,
  outputPerMillion,
});

export const DEFAULT_PRICES: PriceTable = {
  'gpt-5': p(1.25, 10),
  'gpt-5-mini': p(0.25, 2),
  'gpt-5-nano': p(0.05, 0.4),
  'gpt-4.1': p(2, 8),
  'gpt-4.1-mini': p(0.4, 1.6),
  'gpt-4.1-nano': p(0.1, 0.4),
  'gpt-4o': p(2.5, 10),
  'gpt-4o-mini': p(0.15, 0.6),
  o3: p(2, 8),
  'o3-mini': p(1.1, 4.4),
  'o4-mini': p(1.1, 4.4),
  'gemini-2.5-pro': p(1.25, 10),
  'gemini-2.5-flash': p(0.3, 2.5),
  'gemini-2.5-flash-lite': p(0.1, 0.4),
  'gemini-2.0-flash': p(0.1, 0.4),
};

/** Price for a model name; `models/…` and `provider/…` prefixes are ignored. */
export function priceFor(
  model: string,
  table: PriceTable = DEFAULT_PRICES,
): ModelPrice | undefined {
  const name = model.toLowerCase().replace(/^.*\//, '');
  let best: string | undefined;
  for (const prefix of Object.keys(table)) {
    if (
      name.startsWith(prefix.toLowerCase()) &&
      (best === undefined || prefix.length > best.length)
    )
      best = prefix;
  }
  return best === undefined ? undefined : table[best];
}

export function costOf(
  model: string,
  promptTokens: number,
  completionTokens: number,
  table: PriceTable = DEFAULT_PRICES,
): { cost: number; priced: boolean } {
  const price = priceFor(model, table);
  if (!price) return { cost: 0, priced: false };
  const cost =
    (promptTokens * price.inputPerMillion + completionTokens * price.outputPerMillion) / 1e6;
  return { cost, priced: true };
}
