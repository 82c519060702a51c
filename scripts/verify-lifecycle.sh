#!/usr/bin/env bash
# Checks the app-lifecycle simulator from the outside: builds `pipeline`, replays the three
# scenarios of `pipeline simulate` and checks that each state log holds the expected events in
# order, that nothing it must not hold appears, that the log is the same on a second run, and that
# --json prints one object per event; then runs a month of `pipeline simulate --device` and checks
# that the app with the launch chain retrains on most days and the register-only app never does.
#
#   scripts/verify-lifecycle.sh        set PIPELINE_BINARY to check a binary without building
#
# Prints one line per check and exits 0 when all pass; on a mismatch it names the expected line
# that was not found, prints the log, and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${PIPELINE_BINARY:-}" ]; then
    PIPELINE="$PIPELINE_BINARY"
else
    source scripts/lib/dependencies.sh
    ensure_packages "${PIPELINE_PACKAGES[@]}"
    if ! output="$(swift build --product pipeline 2>&1)"; then
        printf '%s\n' "$output" >&2
        echo "error: the build failed" >&2
        exit 1
    fi
    PIPELINE="$(swift build --show-bin-path)/pipeline"
fi
[ -x "$PIPELINE" ] || { echo "error: no pipeline executable at $PIPELINE" >&2; exit 1; }

failures=0

# fail SCENARIO MESSAGE LOG
fail() {
    echo "FAIL $1: $2" >&2
    printf '%s\n' "$3" | sed 's/^/    /' >&2
    failures=$((failures + 1))
}

# verify SCENARIO EXPECTED... [-- FORBIDDEN...]
# Each EXPECTED text must appear in a line after the line that matched the previous one.
verify() {
    local scenario="$1"
    shift
    local expected=() forbidden=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        expected+=("$1")
        shift
    done
    [ $# -gt 0 ] && shift
    forbidden=("$@")

    local log
    if ! log="$("$PIPELINE" simulate --scenario "$scenario")"; then
        fail "$scenario" "pipeline simulate --scenario $scenario exited with an error" "$log"
        return
    fi

    local next=0 line
    while IFS= read -r line && [ "$next" -lt "${#expected[@]}" ]; do
        if [[ "$line" == *"${expected[$next]}"* ]]; then
            next=$((next + 1))
        fi
    done <<<"$log"
    if [ "$next" -lt "${#expected[@]}" ]; then
        local after="the start of the log"
        [ "$next" -gt 0 ] && after="'${expected[$((next - 1))]}'"
        fail "$scenario" "expected a line containing '${expected[$next]}' after $after; the log was:" "$log"
        return
    fi

    local text
    for text in "${forbidden[@]}"; do
        if [[ "$log" == *"$text"* ]]; then
            fail "$scenario" "the log must not contain '$text'; the log was:" "$log"
            return
        fi
    done

    local again
    again="$("$PIPELINE" simulate --scenario "$scenario")"
    if [ "$again" != "$log" ]; then
        fail "$scenario" "a second run printed a different log:" "$(diff <(printf '%s\n' "$log") <(printf '%s\n' "$again") || true)"
        return
    fi

    local json events objects
    json="$("$PIPELINE" simulate --scenario "$scenario" --json)"
    events="$(printf '%s\n' "$log" | wc -l)"
    objects="$(printf '%s\n' "$json" | grep -c '^{"time":"+[0-9:.]*","seconds":.*"text":".*"}$' || true)"
    if [ "$events" -ne "$objects" ]; then
        fail "$scenario" "--json printed $objects event objects for $events log lines:" "$json"
        return
    fi

    echo "ok   $scenario ($events events)"
}

verify finishes-in-window \
    "+00:00:00.000 terminated → active: launched by the user" \
    "+00:00:01.000 active → background: the user left the app" \
    "beginBackgroundTask 'upload' granted" \
    "background time granted until +00:00:31.000" \
    "work 'upload' started, needs 20 s" \
    "+00:00:21.000 work 'upload' finished" \
    "+00:00:21.000 endBackgroundTask 'upload'" \
    "+00:00:21.000 background → suspended: no background task is running" \
    "work 'refresh' refused: the app is suspended" \
    -- \
    "→ terminated" "expiration handler"

verify overruns-window \
    "+00:00:00.000 terminated → active: launched by the user" \
    "+00:00:01.000 active → background: the user left the app" \
    "beginBackgroundTask 'upload' granted" \
    "background time granted until +00:00:31.000" \
    "work 'upload' started, needs 45 s" \
    "+00:00:26.000 expiration handler of 'upload'" \
    "+00:00:31.000 background → terminated: background task 'upload' expired without endBackgroundTask" \
    "+00:00:31.000 work 'upload' lost with 15 s left" \
    "work 'refresh' refused: the app is terminated" \
    "terminated → active: launched by the user" \
    -- \
    "work 'upload' finished" "endBackgroundTask 'upload'" "→ suspended"

verify memory-pressure \
    "+00:00:00.000 terminated → active: launched by the user" \
    "work 'index' started" \
    "memory warning delivered to the running app" \
    "active → background: the user left the app" \
    "background → suspended: no background task is running" \
    "work 'index' frozen" \
    "work 'refresh' refused: the app is suspended" \
    "suspended → terminated: killed under memory pressure, without a callback" \
    "work 'index' lost" \
    "terminated → active: launched by the user" \
    -- \
    "work 'index' finished" "expired"

# verify_device: a month on the simulated phone. The app with the launch chain retrains on most
# days (at least 20 of 30); the register-only app never runs it; Low Power Mode stops both.
verify_device() {
    local report low_power chain days
    if ! report="$("$PIPELINE" simulate --device --days 30 --seed 1)"; then
        fail device "pipeline simulate --device exited with an error" "$report"
        return
    fi
    chain="$(printf '%s\n' "$report" | grep '^with launch chain: ml-retrain ran ' || true)"
    days="$(printf '%s\n' "$chain" | sed -n 's/^with launch chain: ml-retrain ran \([0-9]*\) of 30 days.*/\1/p')"
    if [ -z "$days" ] || [ "$days" -lt 20 ]; then
        fail device "expected 'with launch chain: ml-retrain ran N of 30 days' with N >= 20; the report was:" "$report"
        return
    fi
    if ! printf '%s\n' "$report" | grep -q '^register only: ml-retrain ran 0 times;'; then
        fail device "expected 'register only: ml-retrain ran 0 times'; the report was:" "$report"
        return
    fi
    low_power="$("$PIPELINE" simulate --device --days 30 --seed 1 --low-power)"
    if ! printf '%s\n' "$low_power" | grep -q '^with launch chain: ml-retrain ran 0 times;'; then
        fail device "expected no retrain in Low Power Mode; the report was:" "$low_power"
        return
    fi
    echo "ok   device (with launch chain: ml-retrain on $days of 30 days; register only: never; Low Power Mode: never)"
}

verify_device

if [ "$failures" -gt 0 ]; then
    echo "$failures lifecycle check(s) failed" >&2
    exit 1
fi
echo "all lifecycle checks pass: 3 scenarios and the device simulation"
