#!/usr/bin/env bash
# Downloads the split-spec example of the npm package multi-file-swagger
# (a Swagger 2.0 document whose info, paths and definitions are $refs to
# other files) and installs swagger-cli (npm @apidevtools/swagger-cli),
# whose "bundle" output the viewer's bundling is compared with. Prints a
# directory holding package/ (the example, unpacked) and
# swagger-cli/node_modules/.bin/swagger-cli; reuses an earlier download.
#
#   export VIEWER_MULTI_FILE_SWAGGER=$(scripts/fetch-multi-file-swagger.sh)
#   go test -run MultiFileSwagger . ./internal/browsertest
set -euo pipefail
example=${MULTI_FILE_SWAGGER_VERSION:-2.3.0}
cli=${SWAGGER_CLI_VERSION:-4.0.4}
dir=${VIEWER_CACHE_DIR:-"$(cd "$(dirname "$0")/.." && pwd)/.cache"}
out="$dir/multi-file-swagger-$example+swagger-cli-$cli"
if [ ! -s "$out/package/index.yaml" ] || [ ! -x "$out/swagger-cli/node_modules/.bin/swagger-cli" ]; then
  mkdir -p "$dir"
  [ -d "$out" ] && rm -rf "$out" # an incomplete earlier download
  tmp=$(mktemp -d "$dir/.multi-file-swagger.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack "multi-file-swagger@$example" --silent >/dev/null 2>&1)
  tar -xzf "$tmp"/multi-file-swagger-*.tgz -C "$tmp"
  rm "$tmp"/multi-file-swagger-*.tgz
  mkdir -p "$tmp/swagger-cli"
  npm install --prefix "$tmp/swagger-cli" --no-audit --no-fund --silent --no-save "@apidevtools/swagger-cli@$cli" >/dev/null 2>&1
  # Another run may have finished first (tests of two packages at once):
  # then keep its copy.
  if mv -T "$tmp" "$out" 2>/dev/null; then trap - EXIT; fi
fi
echo "$out"
