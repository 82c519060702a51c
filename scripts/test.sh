#!/usr/bin/env bash
# Installs what is missing, starts a throwaway PostgreSQL cluster (a temporary folder, a private
# Unix socket, an unprivileged server user), runs the whole test suite against SQLite and
# PostgreSQL, and stops the cluster afterwards — also when the tests fail or are interrupted.
#
# PIPELINE_TEST_POSTGRES=off skips the PostgreSQL tests (the run says so); any other value is
# taken as the URL of a server to use instead of starting one.
#
# Then the concurrency suites run again under ThreadSanitizer (README), on the same server, in their
# own build folder (.build-tsan), and fail the run if they take longer than PIPELINE_TSAN_LIMIT
# seconds (default 900). On the 2-core CI machine the cold ThreadSanitizer build took 5 min 38 s and
# its run 22 s, beside about 4 min for the normal cold build and suite. PIPELINE_TSAN=0 skips it, and
# so does a run given arguments for `swift test` (a filter, say).
#
# Before that, scripts/fuzz.sh runs each libFuzzer target for PIPELINE_FUZZ_SECONDS (default 15) in
# its own build folder (.build-fuzz); PIPELINE_FUZZ=0 skips it, and so do arguments for `swift test`.
# And first, right after the suite, scripts/library-example.sh compiles the README's library example in a
# package of its own that depends on this one by path, as a user's would, and runs it (about 3 min of CPU cold).
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

if [ $# -eq 0 ]; then
    # The README's library example, compiled and run in a package of its own that depends on this one by path.
    scripts/library-example.sh
fi

if [ "${PIPELINE_FUZZ:-1}" != 0 ] && [ $# -eq 0 ]; then
    # Each libFuzzer target for a short, bounded time (scripts/fuzz.sh); a crash fails the run.
    scripts/fuzz.sh "${PIPELINE_FUZZ_SECONDS:-15}"
fi

if [ "${PIPELINE_TSAN:-1}" != 0 ] && [ $# -eq 0 ]; then
    # The storage checks its isolation on every statement; ThreadSanitizer also sees the races
    # that no check names (a handler's own state, the scheduler's).
    timeout --kill-after=30 "${PIPELINE_TSAN_LIMIT:-900}" swift test --sanitize=thread --scratch-path .build-tsan \
        --filter "RegressionTests|ConcurrentWriterTests|SchedulingTests|LaunchTests"
fi
