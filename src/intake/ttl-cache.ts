/**
 * A small promise cache with a time to live. Webhook intake asks GitHub the same questions
 * (repo config, sender permission) for every delivery; caching the promise also collapses a burst
 * of concurrent deliveries into one request. Rejections are not cached.
 */
export interface TtlCache<V> {
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** The value already loaded for `key` and still fresh; never loads. */
  peek(key: string): V | undefined;
  clear(): void;
}

export function createTtlCache<V>(options: {
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}): TtlCache<V> {
  const now = options.now ?? Date.now;
  const max = options.maxEntries ?? 1000;
  const entries = new Map<string, { value: Promise<V>; expires: number; settled?: { v: V } }>();
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
      const entry: { value: Promise<V>; expires: number; settled?: { v: V } } = {
        value,
        expires: now() + options.ttlMs,
      };
      entries.set(key, entry);
      value.then(
        (v) => {
          entry.settled = { v };
        },
        () => {
          if (entries.get(key)?.value === value) entries.delete(key);
        },
      );
      return value;
    },
    peek(key) {
      const hit = entries.get(key);
      return hit && hit.expires > now() ? hit.settled?.v : undefined;
    },
    clear: () => entries.clear(),
  };
}
