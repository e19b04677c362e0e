/** A call's identity for repeat detection: the tool and its arguments, key order aside. */
export function callKey(name: string, args: string): string {
  try {
    return `${name}:${JSON.stringify(sortKeys(JSON.parse(args)))}`;
  } catch {
    return `${name}:${args.trim()}`;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, sortKeys(v)]),
    );
  return value;
}
