/**
 * The environment that points a sandboxed command's tools at the in-sandbox bridge. The sandbox
 * has no other route out, so a tool that ignores these fails to connect (it cannot bypass the
 * allowlist); the list exists so that the common ones work rather than to enforce anything.
 */
export function proxyEnv(port: number): Record<string, string> {
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`proxy port must be an integer from 1 to 65535, got ${port}`);
  const url = `http://127.0.0.1:${port}`;
  return {
    // curl, git, pip, uv, Poetry, Cargo, Go, Bundler, Composer, dotnet, Deno, Bun, pnpm. curl and
    // git read only the lower-case http_proxy (the upper-case one is a CGI header name).
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: url,
    all_proxy: url,
    // Nothing bypasses the proxy: there is no direct route to bypass it with.
    NO_PROXY: '',
    no_proxy: '',
    // npm (and Yarn 1, which reads npm's settings).
    npm_config_proxy: url,
    npm_config_https_proxy: url,
    npm_config_noproxy: '',
    // Yarn 2+ ignores HTTP(S)_PROXY; these are its `httpProxy`/`httpsProxy` settings. (Not
    // YARN_PROXY: Yarn 2+ rejects unknown YARN_* settings.)
    YARN_HTTP_PROXY: url,
    YARN_HTTPS_PROXY: url,
    // Cargo's own setting, for builds that predate its HTTPS_PROXY support.
    CARGO_HTTP_PROXY: url,
    // Node.js ≥ 24 built-in fetch/http (undici) reads the variables above only with this set.
    NODE_USE_ENV_PROXY: '1',
    // The JVM (Gradle, the Gradle wrapper, sbt, Coursier) reads proxies from system properties.
    // Maven ≥ 3.9's transport ignores them: setup-network.ts gives it settings with a <proxy>.
    JAVA_TOOL_OPTIONS: [
      `-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=${port}`,
      `-Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=${port}`,
      '-Dhttp.nonProxyHosts=',
    ].join(' '),
  };
}
