#!/usr/bin/env bash
# Downloads GitHub's REST API description (about 13 MB of JSON) from the npm
# package @octokit/openapi, for the large-document tests and benchmarks.
# Prints the file's path; reuses an earlier download.
#
#   export VIEWER_GITHUB_SPEC=$(scripts/fetch-github-spec.sh)
#   go test -run='^$' -bench=Setup .
set -euo pipefail
version=${OCTOKIT_OPENAPI_VERSION:-23.0.2}
dir=${VIEWER_CACHE_DIR:-"$(cd "$(dirname "$0")/.." && pwd)/.cache"}
out="$dir/api.github.com-$version.json"
if [ ! -s "$out" ]; then
  mkdir -p "$dir"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack "@octokit/openapi@$version" --silent >/dev/null 2>&1)
  tar -xzf "$tmp"/octokit-openapi-*.tgz -C "$tmp" package/generated/api.github.com.json
  mv "$tmp/package/generated/api.github.com.json" "$out"
fi
echo "$out"
