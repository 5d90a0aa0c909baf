# Sourced by .ci/run: installs Versity Gateway (an S3-compatible server that
# builds from the Go module proxy), starts it on loopback with a throw-away
# posix backend, and exports the VIEWER_TEST_S3_* variables that
# exporttask/artifact/s3store/s3test reads. VIEWER_TEST_REQUIRE_S3=1 makes
# the S3 tests fail instead of skipping when no server is found. The server
# is stopped and its directory removed when the sourcing shell exits.
s3_version=v1.8.0
s3_bin="$(go env GOPATH)/bin/versitygw"
if ! "$s3_bin" --version 2>/dev/null | grep -q .; then
  go install "github.com/versity/versitygw/cmd/versitygw@$s3_version"
fi
s3_port=${S3_PORT:-57070}
s3_dir=$(mktemp -d /tmp/viewer-s3.XXXXXX)
mkdir -p "$s3_dir/data"
export VIEWER_TEST_S3_ENDPOINT="http://127.0.0.1:$s3_port"
export VIEWER_TEST_S3_ACCESS_KEY=viewer-ci-access
export VIEWER_TEST_S3_SECRET_KEY=viewer-ci-secret
export VIEWER_TEST_S3_BUCKET=viewer-test
export VIEWER_TEST_REQUIRE_S3=1
ROOT_ACCESS_KEY=$VIEWER_TEST_S3_ACCESS_KEY ROOT_SECRET_KEY=$VIEWER_TEST_S3_SECRET_KEY \
  "$s3_bin" --port "127.0.0.1:$s3_port" posix "$s3_dir/data" >"$s3_dir/log" 2>&1 &
s3_pid=$!
stop_s3() { kill "$s3_pid" 2>/dev/null; wait "$s3_pid" 2>/dev/null; rm -rf "$s3_dir"; }
# postgres.sh sets an EXIT trap too: keep both.
trap "stop_s3; $(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")" EXIT
s3_up() { (exec 3<>"/dev/tcp/127.0.0.1/$s3_port") 2>/dev/null; }
for _ in $(seq 100); do
  s3_up && break
  sleep 0.1
done
if ! s3_up; then
  echo "s3.sh: versitygw did not answer on $VIEWER_TEST_S3_ENDPOINT:" >&2
  cat "$s3_dir/log" >&2
  return 1
fi
echo "s3: $VIEWER_TEST_S3_ENDPOINT (versitygw $s3_version, bucket $VIEWER_TEST_S3_BUCKET created by the tests)"
