/**
 * A small promise cache with a time to live. Webhook intake asks GitHub the same questions
 * (repo config, sender permission) for every delivery; caching the promise also collapses a burst
 * of concurrent deliveries into one request. Rejections are not cached.
 */
export interface TtlCache<V> {
  get(key: string, load: () => Promise<V>): Promise<V>;
  clear(): void;
}

export function createTtlCache<V>(options: {
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}): TtlCache<V> {
  const now = options.now ?? Date.now;
  const max = options.maxEntries ?? 1000;
  const entries = new Map<string, { value: Promise<V>; expires: number }>();
  return {
    get(key, load) {
      const hit = entries.get(key);
      if (hit && hit.expires > now()) return hit.value;
      if (hit) entries.delete(key);
      if (entries.size >= max) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      const value = load();
      entries.set(key, { value, expires: now() + options.ttlMs });
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      return value;
    },
    clear: () => entries.clear(),
  };
}
