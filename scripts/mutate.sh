#!/usr/bin/env bash
# Puts each of the original app's bugs (DESIGN §8) back, one at a time, and checks that the
# regression suite catches it: applies Tests/RegressionTests/Mutations/bug-NN.patch to the sources,
# builds, runs RegressionTests on SQLite and PostgreSQL, and reverts the patch — also when a step
# fails or the script is interrupted. Prints `bug N: caught after S s, run over after T s` (S: seconds
# from the start of the run to its first failing test; T: to the run's end) or `bug N: survived` per
# bug, then `N/10 caught`; exits 0 only when every bug is caught and each run is over within
# PIPELINE_MUTATE_LIMIT seconds (default 60): a regression test fails within seconds when its bug is
# back, and none waits out a time limit for something the bug keeps from happening.
# `scripts/mutate.sh 2 10` tries bugs 2 and 10 only.
#
# The suite is first run once unchanged: a failure there would make every bug look caught.
# PostgreSQL: a throwaway cluster is started as in scripts/test.sh, unless PIPELINE_TEST_POSTGRES
# names a server (or is `off`, which runs SQLite only and is said so).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/postgres.sh

mutations=Tests/RegressionTests/Mutations
logs=$(mktemp -d /tmp/pipeline-mutate.XXXXXX)
applied=""

revert() {
    if [ -n "$applied" ]; then
        git apply -R "$applied"
        applied=""
    fi
}
cleanup() {
    revert
    stop_test_postgres
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if ! git diff --quiet -- Sources; then
    echo "error: Sources has uncommitted changes; commit or stash them first (the patches apply to Sources)" >&2
    exit 1
fi
patches=()
if [ $# -eq 0 ]; then
    patches=("$mutations"/bug-*.patch)
else
    for number in "$@"; do patches+=("$(printf '%s/bug-%02d.patch' "$mutations" "$((10#$number))")"); done
fi
for patch in "${patches[@]}"; do
    git apply --check "$patch" || { echo "error: $patch no longer applies; update it" >&2; exit 1; }
done

if [ -z "${PIPELINE_TEST_POSTGRES:-}" ]; then
    start_test_postgres
elif [ "$PIPELINE_TEST_POSTGRES" = off ]; then
    echo "note: PIPELINE_TEST_POSTGRES=off: the regression suite runs on SQLite only" >&2
fi

# The suites' own time limits fail a test that hangs; `timeout` bounds a run that hangs anyway. Each
# line of the log is stamped with the seconds since the run began, so the first failure's time is known.
# The check that every patch applies is left out: with one applied, it fails for that one at once.
run_regressions() {
    local started=${EPOCHREALTIME/./} tenths
    timeout --kill-after=30 900 swift test --skip-build --filter RegressionTests --skip MutationPatchTests 2>&1 |
        while IFS= read -r line; do
            tenths=$(((${EPOCHREALTIME/./} - started) / 100000))
            printf '%d.%d\t%s\n' $((tenths / 10)) $((tenths % 10)) "$line"
        done >"$1"
}

# Seconds from the start of the run logged in $1 to its first failing test (or the crash of the test
# process: bug 3 traps at its first statement off the store's actor), and to its end.
first_failure() {
    awk -F '\t' '/✘ Test |\*\*\* Program crashed|\*\*\* Signal [0-9]+:/ { print $1; exit }' "$1"
}
run_end() {
    awk -F '\t' '{ last = $1 } END { print last }' "$1"
}
limit=${PIPELINE_MUTATE_LIMIT:-60}

swift build --build-tests >"$logs/build-unchanged.log" 2>&1 || {
    cat "$logs/build-unchanged.log" >&2
    exit 1
}
if ! run_regressions "$logs/unchanged.log"; then
    echo "error: RegressionTests fail on the unchanged sources; see $logs/unchanged.log" >&2
    exit 1
fi

caught=0
late=0
for patch in "${patches[@]}"; do
    name=$(basename "$patch" .patch)
    number=$((10#${name#bug-}))
    git apply "$patch"
    applied=$patch
    if ! swift build --build-tests >"$logs/$name-build.log" 2>&1; then
        echo "bug $number: does not build (see $logs/$name-build.log)"
    elif run_regressions "$logs/$name.log"; then
        echo "bug $number: survived (see $logs/$name.log)"
    else
        after=$(first_failure "$logs/$name.log")
        ended=$(run_end "$logs/$name.log")
        timing="caught after ${after:-?} s, run over after ${ended:-?} s"
        if [ -z "$after" ] || [ -z "$ended" ] || [ "${ended%.*}" -ge "$limit" ]; then
            echo "bug $number: $timing: over the ${limit} s limit (see $logs/$name.log)"
            late=$((late + 1))
        else
            echo "bug $number: $timing"
        fi
        caught=$((caught + 1))
    fi
    revert
done
echo "$caught/${#patches[@]} caught$([ "$late" -gt 0 ] && echo ", $late over ${limit} s")"

# Leave the build matching the sources.
swift build --build-tests >"$logs/build-after.log" 2>&1
[ "$caught" -eq "${#patches[@]}" ] && [ "$late" -eq 0 ]
