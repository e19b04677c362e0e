/**
 * The hosts every `setup` command may reach without anyone listing them: the public package
 * registries that the common package managers download from, and nothing else. Code hosts
 * (github.com and its download domains), CDNs and cloud storage buckets are deliberately absent:
 * they host anything anyone uploads, so they are an exfiltration channel as much as a source.
 * A repository that needs one (git dependencies, prebuilt binaries) lists it in `network_allow`.
 * Every entry must resolve to public addresses (see `decideEgress`).
 */
export const DEFAULT_EGRESS_ALLOW: readonly string[] = [
  // npm, pnpm, bun, Yarn 1 and Corepack: metadata and tarballs both come from the registry.
  'registry.npmjs.org',
  // Yarn 1's default registry (an alias of npm's) and Yarn 2+'s own releases and plugins.
  'registry.yarnpkg.com',
  'repo.yarnpkg.com',
  // node-gyp: Node.js headers for native addons that have no prebuilt binary.
  'nodejs.org',
  // pip, uv, Poetry, PDM: the index (pypi.org/simple) and the files it links to.
  'pypi.org',
  'files.pythonhosted.org',
  // Cargo: the sparse index, the crate downloads, and the API that old Cargo versions use.
  'index.crates.io',
  'static.crates.io',
  'crates.io',
  // Go modules: the module proxy and the checksum database `go` verifies every module against.
  'proxy.golang.org',
  'sum.golang.org',
  // Bundler and RubyGems: the compact index and the gem downloads.
  'rubygems.org',
  'index.rubygems.org',
  // Maven Central (Maven, Gradle, sbt, Coursier).
  'repo.maven.apache.org',
  'repo1.maven.org',
  // Gradle: wrapper distributions (services.gradle.org redirects to downloads.gradle.org) and
  // the plugin portal (which redirects artifact downloads to plugins-artifacts.gradle.org).
  'services.gradle.org',
  'downloads.gradle.org',
  'plugins.gradle.org',
  'plugins-artifacts.gradle.org',
  // NuGet (dotnet restore): the v3 service index and its package content.
  'api.nuget.org',
  // Composer: Packagist metadata (package archives themselves usually come from GitHub).
  'repo.packagist.org',
  // Hex (mix deps.get, rebar3).
  'repo.hex.pm',
  'builds.hex.pm',
];
