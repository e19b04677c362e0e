/** What a path the issue names looks like: a data file's name, a path on the reporter's machine. */

export const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** The name of a data, configuration or output file (not a program's: that is the reporter's own). */
export const isDataFile = (path: string): boolean =>
  /\.(json|ya?ml|toml|ini|cfg|conf|txt|csv|tsv|xml|html?|png|jpe?g|gif|svg|pdf|mp[34]|wav|log|lock|db|sqlite|pkl|pt|onnx|h5|npy|npz|zip|tar|gz)$/i.test(
    path,
  );

/**
 * A path on the reporter's machine that is not the repository's: absolute (`/`, `~`, a drive),
 * or inside an installed package (`site-packages`, `dist-packages`, `node_modules`). Resolved by
 * its tail when the tail is here; never by its file name alone.
 */
export function isForeignPath(path: string): boolean {
  return (
    /^(\/|~|[A-Za-z]:)/.test(path) ||
    /(^|\/)(site-packages|dist-packages|node_modules)\//.test(path)
  );
}

/** Files whose path ends with the most trailing segments of `mention` (at least two). */
export function longestTail<T extends { path: string }>(files: readonly T[], mention: string): T[] {
  const want = mention.split('/');
  let best: T[] = [];
  let bestLength = 1;
  for (const f of files) {
    const have = f.path.split('/');
    let n = 0;
    while (
      n < have.length &&
      n < want.length &&
      have[have.length - 1 - n] === want[want.length - 1 - n]
    )
      n++;
    if (n > bestLength) {
      best = [f];
      bestLength = n;
    } else if (n === bestLength && n > 1) best.push(f);
  }
  return best;
}
