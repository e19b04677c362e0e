#!/usr/bin/env bash
# Installs the Debian packages a benchmark needs when their commands are missing, e.g.
# `bash bench/ensure-tools.sh wrk`. Benchmarks only: the test suite never needs these.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
missing=()
for tool in "$@"; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
[ "${#missing[@]}" -eq 0 ] && exit 0
echo "ensure-tools: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
