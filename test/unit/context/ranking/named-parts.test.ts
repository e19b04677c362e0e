import { askedOnce } from '../../../../src/context/ranking/named-parts.js';

describe('askedOnce', () => {
  it('asks a name once however it is spelled, after the names already asked', () => {
    expect(askedOnce(['Docker', 'docker', 'week_of_year', 'weekOfYear'])).toEqual([
      'Docker',
      'week_of_year',
    ]);
    expect(askedOnce(['fish', 'Docker', 'ssm'], ['docker'])).toEqual(['fish', 'ssm']);
  });
});
