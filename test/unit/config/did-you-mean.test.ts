import { didYouMean, editDistance } from '../../../src/config/did-you-mean.js';

describe('didYouMean', () => {
  it('counts insertions, deletions, substitutions and swapped neighbours as one edit each', () => {
    expect(editDistance('validat', 'validate')).toBe(1);
    expect(editDistance('lables', 'labels')).toBe(1);
    expect(editDistance('setpu', 'setup')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('finds near misses only, with case and -/_ set aside', () => {
    const known = ['validate', 'setup', 'code_strategy', 'labels', 'baseline'];
    expect(didYouMean('validat', known)).toBe('validate');
    expect(didYouMean('code-strategy', known)).toBe('code_strategy');
    expect(didYouMean('Labels', known)).toBe('labels');
    expect(didYouMean('timeout', known)).toBeUndefined();
    expect(didYouMean('x', known)).toBeUndefined();
  });

  it('suggests nothing when two names are as near', () => {
    expect(didYouMean('plam', ['plan', 'plat'])).toBeUndefined();
  });
});
