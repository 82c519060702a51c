#!/usr/bin/env bash
# Installs what is missing, starts a throwaway PostgreSQL cluster (a temporary folder, a private
# Unix socket, an unprivileged server user), runs the whole test suite against SQLite and
# PostgreSQL, and stops the cluster afterwards — also when the tests fail or are interrupted.
#
# PIPELINE_TEST_POSTGRES=off skips the PostgreSQL tests (the run says so); any other value is
# taken as the URL of a server to use instead of starting one.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/dependencies.sh
source scripts/lib/postgres.sh
ensure_packages "${PIPELINE_PACKAGES[@]}" "${PIPELINE_SERVER_PACKAGES[@]}"

swift build --build-tests

if [ -z "${PIPELINE_TEST_POSTGRES:-}" ]; then
    trap stop_test_postgres EXIT
    start_test_postgres
    echo "PostgreSQL test server: ${PIPELINE_TEST_POSTGRES}" >&2
fi
swift test --skip-build "$@"
