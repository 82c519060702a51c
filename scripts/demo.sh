#!/usr/bin/env bash
# Installs what is missing, builds, creates a synthetic cohort in a fresh SQLite database and runs
# the pipeline on it the way cron would, printing what each step did, then what to try next.
#
#   scripts/demo.sh [USERS] [DAYS]      defaults: 200 users, 180 days
#
# The clock is set with --now: the cohort is generated through yesterday, ingested and retrained as of
# this time yesterday (the first launch, which starts every task's chain), and the launch at the end
# runs now, when each user's daily reminder has come due. So the commands it suggests at the end, run
# on the machine's clock, see the database as a day of cron would have left it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/dependencies.sh
ensure_packages "${PIPELINE_PACKAGES[@]}"

USERS="${1:-200}"
DAYS="${2:-180}"

# swift build's progress: on a terminal, its "[n/m] Compiling …" lines redrawn in place; otherwise a line at
# every tenth of the way. Errors and warnings are printed as they come.
build() {
    local started=$SECONDS tenth=-1 line step total width status=""
    width=$(( $(tput cols 2>/dev/null || echo 80) - 4 ))
    while IFS= read -r line; do
        if [[ "$line" =~ ^\[([0-9]+)/([0-9]+)\] ]]; then
            step=${BASH_REMATCH[1]}
            total=${BASH_REMATCH[2]}
            if [ -t 1 ]; then
                printf '\r\033[K   %s' "${line:0:$width}"
            elif [ $(( step * 10 / total )) -gt "$tenth" ]; then
                tenth=$(( step * 10 / total ))
                echo "   $line"
            fi
        elif [[ "$line" =~ ^exit\ ([0-9]+)$ ]]; then
            status=${BASH_REMATCH[1]}
        elif [[ "$line" == *error:* || "$line" == *warning:* ]]; then
            [ -t 1 ] && printf '\r\033[K'
            echo "$line"
        fi
    done < <(swift build -c release --static-swift-stdlib --product pipeline 2>&1; echo "exit $?")
    [ -t 1 ] && printf '\r\033[K'
    if [ "$status" != 0 ]; then
        echo "error: the build failed (status ${status:-unknown}); see: swift build -c release --product pipeline" >&2
        exit 1
    fi
    echo "   built in $(( SECONDS - started )) s: .build/release/pipeline"
}

echo "== building (release; the first build takes a few minutes)"
build
PIPELINE="$PWD/.build/release/pipeline"
DEMO="$(mktemp -d /tmp/pipeline-demo.XXXXXX)"
export PIPELINE_DB="$DEMO/pipeline.sqlite"
NOW="$(date -u -d '-1 day' +%Y-%m-%dT%H:%M:00Z)"
NEXT="$(date -u +%Y-%m-%dT%H:%M:00Z)"
echo "   database: $PIPELINE_DB"
echo "   clock:    $NOW, then $NEXT"

section() { printf '\n== %s\n' "$1"; }
indent() { sed 's/^/   /'; }

section "pipeline generate --users $USERS --days $DAYS"
"$PIPELINE" generate --users "$USERS" --days "$DAYS" --seed 1 --now "$NEXT" --truth "$DEMO/truth.jsonl" \
    >"$DEMO/cohort.jsonl"
echo "   $(wc -l <"$DEMO/cohort.jsonl") JSON Lines records; each user's generating coefficients in $DEMO/truth.jsonl"
head -3 "$DEMO/cohort.jsonl" | indent

section "pipeline ingest"
"$PIPELINE" ingest "$DEMO/cohort.jsonl" --now "$NOW" --json | indent

section "pipeline retrain   (what cron runs: silent in a pipe, a progress line on a terminal)"
start=$(date +%s.%N)
"$PIPELINE" retrain --now "$NOW"
# On a terminal the retrain said how long it took; in a pipe it is silent, so say it here.
[ -t 1 ] || echo "   retrained $USERS users in $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
"$PIPELINE" history --identifier ml-retrain --json >"$DEMO/retrain.jsonl"
# What serves each user: a combination of forecasts, named by the one it weighs most (listed first in the
# reason the retrain recorded, "serving: a combination of population 0.58, personal 0.24, …").
echo "   served: a combination weighing most, for each user (as 'pipeline model' and the report name it):"
grep -o '"reason":"serving: a combination of [a-zA-Z]*' "$DEMO/retrain.jsonl" | sed 's/.* of //' | sort | uniq -c \
    | sort -rn | awk '{ printf "     %4d  %s\n", $1, $2 }'
echo "   why, for one user:"
head -1 "$DEMO/retrain.jsonl" | sed 's/.*"user":"\([^"]*\)".*"reason":"\([^"]*\)".*/\1: \2/' | fold -s -w 100 | indent

section "pipeline model --user user-00001"
"$PIPELINE" model --user user-00001 --now "$NOW" | head -8 | indent

section "pipeline predict --user user-00001"
"$PIPELINE" predict --user user-00001 --now "$NOW" 2>&1 | indent

section "pipeline run   (a day later: the refresh tasks that came due)"
"$PIPELINE" run --now "$NEXT" --json | grep -o '"identifier":"[a-z-]*"' | sort | uniq -c | indent

section "pipeline outbox   (what a sender would deliver)"
"$PIPELINE" outbox --now "$NEXT" >"$DEMO/outbox.txt"
echo "   $(grep -c 'log-reminder' "$DEMO/outbox.txt" || true) reminders, $(grep -c 'weekly-insight' "$DEMO/outbox.txt" || true) weekly insights (they go out on Sundays); for example:"
head -1 "$DEMO/outbox.txt" | indent
grep -m 2 'log-reminder' "$DEMO/outbox.txt" | indent || true
grep -m 2 'weekly-insight' "$DEMO/outbox.txt" | indent || true

section "pipeline status"
"$PIPELINE" status --now "$NEXT" | indent

section "pipeline report"
"$PIPELINE" report --out "$DEMO/report" --now "$NEXT" | indent

section "what to try next   (on the demo's database; every command has --help)"
cat <<EOF
   export PIPELINE_DB='$PIPELINE_DB' PATH='$PWD/.build/release':"\$PATH"
   pipeline status                      # what the database holds, and what needs attention
   pipeline model --user user-00002     # what serves a user, and why
   pipeline predict --user user-00002   # tomorrow's severity, its 80% interval, the flare probability
   pipeline evaluate --days 14          # a walk forward: the served forecasts beside the baselines
   pipeline history --identifier ml-retrain --limit 5
   pipeline help                        # every command
   open $DEMO/report/index.html in a browser; rm -r $DEMO when you are done
EOF
