#!/usr/bin/env bash
# Installs the Debian packages a benchmark needs when their commands are missing, e.g.
# `bash bench/ensure-tools.sh wrk`. Benchmarks only: the test suite never needs these.
set -euo pipefail
missing=()
for tool in "$@"; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
[ "${#missing[@]}" -eq 0 ] && exit 0
echo "ensure-tools: installing ${missing[*]}" >&2
# Waits (and says so) while unattended upgrades or another apt-get holds the package locks.
bash "$(dirname "$0")/../.ci/apt-install" "${missing[@]}"
