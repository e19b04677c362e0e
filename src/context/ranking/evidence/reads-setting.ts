/**
 * The modules that read a named setting (`readsSetting`: `settings.FOO`, `self.config.foo`,
 * `app.config["FOO"]`, `getattr(settings, "FOO")`): where a setting's behaviour lives.
 */
import { escapeRegExp, lineAt, matchNear, type Hit } from '../../grep-code.js';
import type { RankInputs } from '../inputs.js';
import type { Contribution } from '../types.js';
import { LIMITS, WEIGHTS } from '../weights.js';

/** The code files that read the setting `id`, up to one more than `LIMITS.maxHits`. */
function readersOf(inputs: RankInputs, id: string): Hit[] {
  const name = escapeRegExp(id);
  const reads = new RegExp(
    `\\b(?:settings|config|conf|cfg|options|opts)\\s*(?:\\.\\s*${name}\\b|\\[\\s*['"]${name}['"]\\s*\\]|\\.get\\(\\s*['"]${name}['"])|getattr\\(\\s*(?:settings|config|conf)\\s*,\\s*['"]${name}['"]`,
  );
  const readers: Hit[] = [];
  for (const f of inputs.holders(id)) {
    const at = matchNear(f.content, id, reads);
    if (at >= 0) readers.push({ path: f.path, line: lineAt(f.content, at) });
    if (readers.length > LIMITS.maxHits) break; // too many: dropped by the caller
  }
  return readers;
}

export function readsSettingEvidence(inputs: RankInputs): Contribution[] {
  return inputs.located.named.flatMap((id) => {
    if (id.length < 4) return [];
    const readers = readersOf(inputs, id);
    if (readers.length === 0 || readers.length > LIMITS.maxHits) return [];
    const n = inputs.sourceCount(readers);
    return readers.map((r) => ({
      path: r.path,
      kind: 'readsSetting',
      points: WEIGHTS.readsSetting / n,
      reason: `reads the setting \`${id}\``,
      lines: [r.line],
    }));
  });
}
