#!/usr/bin/env bash
# Prints the crontab entries that launch pipeline's scheduler, and with --install adds them to the
# current user's crontab, replacing the entries an earlier --install added (nothing else changes).
#
#   pipeline run       every 15 minutes: starts every user's task chains and runs the due app-refresh
#                      tasks (watch-queue drain, reminders, weekly insights).
#   pipeline retrain   once a day, at any hour: a launch with all cores for the ml-retrain tasks, each
#                      due from 03:00 on its user's clock, so all are due whenever it fires (retrains
#                      need external power; on a laptop on battery it exits 75 and says why).
#
# Both are silent when everything succeeds, so cron mails only failures. Overlapping launches are
# safe: a request is leased to one worker, so nothing runs twice.
set -euo pipefail

usage() {
    cat <<'TEXT'
Usage: scripts/install-cron.sh [--install] [--binary PATH] [--db PATH] [--every MINUTES]
                               [--retrain-at HH:MM] [--metrics-file PATH]

Prints the crontab entries for pipeline; --install adds them to your crontab.

  --install            Install the entries (replacing ones installed before) instead of printing them.
  --binary PATH        The pipeline executable (default: 'pipeline' on PATH, else .build/release/pipeline).
  --db PATH            The database (default: $PIPELINE_DB, else ./pipeline.sqlite).
  --every MINUTES      Minutes between 'pipeline run' launches, a divisor of 60 (default: 15).
  --retrain-at HH:MM   When 'pipeline retrain' runs each day, server time; any hour finds every
                       user's retrain due (default: 03:00).
  --metrics-file PATH  Also write Prometheus metrics there (node_exporter's textfile collector).
TEXT
}

fail() {
    echo "Error: $1" >&2
    exit 64
}

install=false
binary=""
database="${PIPELINE_DB:-./pipeline.sqlite}"
every=15
retrain_at="03:00"
metrics=""

while [[ $# -gt 0 ]]; do
    case "$1" in
        --install) install=true ;;
        --binary) [[ $# -ge 2 ]] || fail "missing value for '--binary <path>'"; binary="$2"; shift ;;
        --db) [[ $# -ge 2 ]] || fail "missing value for '--db <path>'"; database="$2"; shift ;;
        --every) [[ $# -ge 2 ]] || fail "missing value for '--every <minutes>'"; every="$2"; shift ;;
        --retrain-at) [[ $# -ge 2 ]] || fail "missing value for '--retrain-at <HH:MM>'"; retrain_at="$2"; shift ;;
        --metrics-file) [[ $# -ge 2 ]] || fail "missing value for '--metrics-file <path>'"; metrics="$2"; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; fail "unknown option '$1'" ;;
    esac
    shift
done

# cron runs with a minimal environment and another working directory: every path must be absolute.
absolute() {
    case "$1" in
        /*) printf '%s\n' "$1" ;;
        *) printf '%s/%s\n' "$(pwd -P)" "${1#./}" ;;
    esac
}

if [[ -z "$binary" ]]; then
    if command -v pipeline >/dev/null 2>&1; then
        binary="$(command -v pipeline)"
    else
        binary="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)/.build/release/pipeline"
    fi
fi
binary="$(absolute "$binary")"
database="$(absolute "$database")"
[[ -x "$binary" ]] || fail "no pipeline executable at $binary; build it with 'swift build -c release --static-swift-stdlib' or pass --binary"
[[ -n "$metrics" ]] && metrics="$(absolute "$metrics")"

# In a crontab '%' ends the command and a newline ends the entry; quotes would break the quoting below.
for path in "$binary" "$database" "$metrics"; do
    [[ "$path" != *[%\'$'\n']* ]] || fail "paths used in a crontab cannot contain %, ' or a newline: $path"
done

[[ "$every" =~ ^[0-9]+$ ]] && (( every >= 1 && every <= 60 && 60 % every == 0 )) \
    || fail "invalid value '$every' for '--every <minutes>': expected a divisor of 60 (1, 5, 15, 30, 60)"
[[ "$retrain_at" =~ ^([01][0-9]|2[0-3]):([0-5][0-9])$ ]] \
    || fail "invalid value '$retrain_at' for '--retrain-at <HH:MM>': expected a time such as 03:00"
hour=$((10#${BASH_REMATCH[1]}))
minute=$((10#${BASH_REMATCH[2]}))

if (( every == 60 )); then run_schedule="0 * * * *"; else run_schedule="*/$every * * * *"; fi
options=""
[[ -n "$metrics" ]] && options=" --metrics-file '$metrics'"

begin="# BEGIN pipeline (scripts/install-cron.sh)"
end="# END pipeline"
entries="$begin
# Launch the scheduler: every due task. Silent on success; cron mails failures.
$run_schedule PIPELINE_DB='$database' '$binary' run$options
# Retrain the personal models that are due, with all cores, at night.
$minute $hour * * * PIPELINE_DB='$database' '$binary' retrain$options
$end"

if ! $install; then
    printf '%s\n' "$entries"
    exit 0
fi

command -v crontab >/dev/null 2>&1 || { echo "Error: crontab is not installed (Debian: apt-get install cron)" >&2; exit 1; }
current="$(crontab -l 2>/dev/null || true)"
# Drop the block an earlier --install wrote; keep every other line as it was.
kept="$(printf '%s\n' "$current" | awk -v begin="$begin" -v end="$end" '
    $0 == begin { skipping = 1; next }
    $0 == end { skipping = 0; next }
    !skipping { print }')"
{
    [[ -n "$kept" ]] && printf '%s\n' "$kept"
    printf '%s\n' "$entries"
} | crontab -
echo "Installed the pipeline entries in the crontab of $(id -un):" >&2
printf '%s\n' "$entries" >&2
