import { similarity } from './similarity.js';

/**
 * The file lines most like the first line of a target that was not found, numbered, so the LLM
 * can see what the file really says there.
 */
export function closestLines(text: string, target: string, count = 3): string[] {
  const needle = (target.split('\n').find((l) => l.trim() !== '') ?? '')
    .trim()
    .replace(/\s+/g, ' ');
  if (needle === '') return [];
  return text
    .split('\n')
    .map((line, i) => ({ i, line, score: similarity(line.trim().replace(/\s+/g, ' '), needle) }))
    .filter((c) => c.line.trim() !== '' && c.score >= 0.3)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, count)
    .sort((a, b) => a.i - b.i)
    .map((c) => `${String(c.i + 1).padStart(5)} | ${c.line}`);
}
