#!/usr/bin/env bash
# Measures pipeline against a baseline run in the same session on the same data, and prints each
# figure beside its baseline and their ratio. Release build; takes a few minutes.
#
#   scripts/bench.sh            every benchmark
#   scripts/bench.sh NAME       one of: ingest, apple-health
#
# Figures vary with the machine and its load; compare ratios, not absolute numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/dependencies.sh
ensure_packages "${PIPELINE_PACKAGES[@]}"

swift build -c release --product pipeline >&2
PIPELINE="$PWD/.build/release/pipeline"
WORK="$(mktemp -d /tmp/pipeline-bench.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
NOW="2026-11-29T12:00:00Z"
USERS="${BENCH_USERS:-1000}"
DAYS="${BENCH_DAYS:-365}"

# seconds COMMAND...: runs COMMAND and prints its wall time in seconds (GNU time).
seconds() {
    /usr/bin/time -f "%e" -o "$WORK/time" "$@" >/dev/null 2>"$WORK/stderr" || { cat "$WORK/stderr" >&2; return 1; }
    cat "$WORK/time"
}

# ratio A B: A / B with two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'; }

bench_ingest() {
    echo "== ingest: pipeline generate --users $USERS --days $DAYS, then pipeline ingest"
    "$PIPELINE" generate --users "$USERS" --days "$DAYS" --now "$NOW" >"$WORK/cohort.jsonl"
    local records
    records=$(wc -l <"$WORK/cohort.jsonl")
    rm -f "$WORK/ingest.sqlite"*
    local ours
    ours=$(seconds "$PIPELINE" ingest "$WORK/cohort.jsonl" --db "$WORK/ingest.sqlite" --now "$NOW")

    # The baseline: the same daily rows, as CSV, loaded by the sqlite3 shell's .import into a
    # table with the same unique key, in WAL mode with synchronous=NORMAL like pipeline's.
    sqlite3 -csv "$WORK/ingest.sqlite" \
        "SELECT user_id, day, symptom_severity, mood, energy, hrv, resting_heart_rate, step_count, sleep_duration
         FROM daily_logs" >"$WORK/rows.csv"
    local rows
    rows=$(wc -l <"$WORK/rows.csv")
    cat >"$WORK/import.sql" <<SQL
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE daily_logs (
    user_id TEXT NOT NULL, day TEXT NOT NULL, symptom_severity INTEGER, mood INTEGER, energy INTEGER,
    hrv REAL, resting_heart_rate REAL, step_count INTEGER, sleep_duration REAL,
    PRIMARY KEY (user_id, day)) WITHOUT ROWID;
.mode csv
.import $WORK/rows.csv daily_logs
SQL
    rm -f "$WORK/import.sqlite"*
    local baseline
    baseline=$(seconds sqlite3 "$WORK/import.sqlite" ".read $WORK/import.sql")
    printf "  pipeline ingest   %9d records in %6.2f s  %9s records/s\n" "$records" "$ours" "$(rate "$records" "$ours")"
    printf "  sqlite3 .import   %9d rows    in %6.2f s  %9s rows/s\n" "$rows" "$baseline" "$(rate "$rows" "$baseline")"
    printf "  time ratio (pipeline / sqlite3): %sx   (aim: at most 3x)\n" "$(ratio "$ours" "$baseline")"
}

source scripts/bench/apple-health.sh

run_apple_health() {
    echo "== apple-health: pipeline ingest --format apple-health on a generated ${APPLE_HEALTH_BENCH_MB:-1024} MB export"
    bench_apple_health "$PIPELINE"
}

what="${1:-all}"
case "$what" in
    ingest) bench_ingest ;;
    apple-health) run_apple_health ;;
    all)
        bench_ingest
        run_apple_health
        ;;
    *) echo "unknown benchmark: $what (expected: ingest, apple-health)" >&2; exit 64 ;;
esac
