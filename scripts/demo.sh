#!/usr/bin/env bash
# Installs what is missing, builds, creates a synthetic cohort in a fresh SQLite database and runs
# the pipeline on it the way cron would, printing what each step did.
#
#   scripts/demo.sh [USERS] [DAYS]      defaults: 200 users, 180 days
#
# The clock is set with --now: the cohort is generated, ingested and retrained on a Saturday at
# 21:00 UTC (the first launch, which starts every task's chain), and the launch at the end runs
# the next evening, when the daily reminders and the Sunday insight are due.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/dependencies.sh
ensure_packages "${PIPELINE_PACKAGES[@]}"

USERS="${1:-200}"
DAYS="${2:-180}"
echo "== building (release)"
swift build -c release --static-swift-stdlib --product pipeline 2>&1 | tail -1
PIPELINE="$PWD/.build/release/pipeline"
DEMO="$(mktemp -d /tmp/pipeline-demo.XXXXXX)"
export PIPELINE_DB="$DEMO/pipeline.sqlite"
SUNDAY="$(date -u -d "-$(($(date -u +%u) % 7)) days" +%Y-%m-%d)"
NOW="$(date -u -d "$SUNDAY -1 day" +%Y-%m-%d)T21:00:00Z"
NEXT="${SUNDAY}T21:00:00Z"
echo "   database: $PIPELINE_DB"
echo "   clock:    $NOW, then $NEXT"

section() { printf '\n== %s\n' "$1"; }
indent() { sed 's/^/   /'; }

section "pipeline generate --users $USERS --days $DAYS"
"$PIPELINE" generate --users "$USERS" --days "$DAYS" --seed 1 --now "$NOW" --truth "$DEMO/truth.jsonl" \
    >"$DEMO/cohort.jsonl"
echo "   $(wc -l <"$DEMO/cohort.jsonl") JSON Lines records; each user's generating coefficients in $DEMO/truth.jsonl"
head -3 "$DEMO/cohort.jsonl" | indent

section "pipeline ingest"
"$PIPELINE" ingest "$DEMO/cohort.jsonl" --now "$NOW" --json | indent

section "pipeline retrain   (what cron runs; silent on success)"
start=$(date +%s.%N)
"$PIPELINE" retrain --now "$NOW"
echo "   retrained $USERS users in $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
"$PIPELINE" history --identifier ml-retrain --json >"$DEMO/retrain.jsonl"
# What each user is served now, from the reasons the retrains recorded ("serving: the personal model has …",
# "serving: no scored day …, so the population model serves").
served() { grep -cE "\"reason\":\"serving: (the |no scored day[^\"]*, so the )$1" "$DEMO/retrain.jsonl" || true; }
echo "   served: the personal model to $(served 'personal model'), the population model to" \
    "$(served 'population model'), tomorrow-equals-today to $(served 'tomorrow-equals-today')," \
    "the recent mean to $(served 'recent-mean') of $USERS users"
echo "   why, for three users:"
head -3 "$DEMO/retrain.jsonl" | sed 's/.*"user":"\([^"]*\)".*"reason":"\([^"]*\)".*/\1: \2/' | indent

section "pipeline model --user user-00001"
"$PIPELINE" model --user user-00001 --now "$NOW" | head -12 | indent

section "pipeline predict --user user-00001"
"$PIPELINE" predict --user user-00001 --now "$NOW" | indent

section "pipeline run --now $NEXT   (the next evening's launch: the refresh tasks that are due)"
"$PIPELINE" run --now "$NEXT" --json | grep -o '"identifier":"[a-z-]*"' | sort | uniq -c | indent

section "pipeline outbox   (what a sender would deliver)"
"$PIPELINE" outbox --now "$NEXT" >"$DEMO/outbox.txt"
echo "   $(grep -c 'log-reminder' "$DEMO/outbox.txt" || true) reminders, $(grep -c 'weekly-insight' "$DEMO/outbox.txt" || true) weekly insights; for example:"
grep -m 2 'log-reminder' "$DEMO/outbox.txt" | indent || true
grep -m 2 'weekly-insight' "$DEMO/outbox.txt" | indent || true

section "pipeline status"
"$PIPELINE" status --now "$NEXT" | indent
