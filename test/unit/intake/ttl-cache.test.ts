import { createTtlCache } from '../../../src/intake/ttl-cache.js';

describe('createTtlCache', () => {
  it('collapses concurrent loads and reuses the value until it expires', async () => {
    let now = 0;
    let loads = 0;
    const cache = createTtlCache<number>({ ttlMs: 100, now: () => now });
    const load = (): Promise<number> => Promise.resolve(++loads);
    expect(await Promise.all([cache.get('k', load), cache.get('k', load)])).toEqual([1, 1]);
    now = 99;
    expect(await cache.get('k', load)).toBe(1);
    now = 100;
    expect(await cache.get('k', load)).toBe(2);
  });

  it('does not keep failures', async () => {
    const cache = createTtlCache<number>({ ttlMs: 1000 });
    await expect(cache.get('k', () => Promise.reject(new Error('502')))).rejects.toThrow('502');
    await new Promise((r) => setImmediate(r));
    expect(await cache.get('k', () => Promise.resolve(3))).toBe(3);
  });

  it('evicts the oldest entry when full', async () => {
    const cache = createTtlCache<string>({ ttlMs: 1000, maxEntries: 2 });
    await cache.get('a', () => Promise.resolve('a1'));
    await cache.get('b', () => Promise.resolve('b1'));
    await cache.get('c', () => Promise.resolve('c1'));
    expect(await cache.get('a', () => Promise.resolve('a2'))).toBe('a2');
    expect(await cache.get('c', () => Promise.resolve('c2'))).toBe('c1');
  });
});
