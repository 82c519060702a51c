#!/usr/bin/env bash
# Installs what is missing, builds, creates a synthetic cohort in a fresh SQLite database, and runs
# the pipeline on it, printing what each step did.
#
#   scripts/demo.sh [USERS] [DAYS]      defaults: 200 users, 180 days
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/dependencies.sh
ensure_packages "${PIPELINE_PACKAGES[@]}"

USERS="${1:-200}"
DAYS="${2:-180}"
echo "== building (release)"
swift build -c release --product pipeline 2>&1 | tail -1
PIPELINE="$PWD/.build/release/pipeline"
DEMO="$(mktemp -d /tmp/pipeline-demo.XXXXXX)"
export PIPELINE_DB="$DEMO/pipeline.sqlite"
echo "   database: $PIPELINE_DB"

echo
echo "== pipeline generate --users $USERS --days $DAYS"
"$PIPELINE" generate --users "$USERS" --days "$DAYS" --seed 1 --truth "$DEMO/truth.jsonl" >"$DEMO/cohort.jsonl"
echo "   $(wc -l <"$DEMO/cohort.jsonl") JSON Lines records, ground truth in $DEMO/truth.jsonl"
head -3 "$DEMO/cohort.jsonl" | sed 's/^/   /'

echo
echo "== pipeline ingest"
"$PIPELINE" ingest "$DEMO/cohort.jsonl" --json | sed 's/^/   /'

echo
echo "== pipeline status"
"$PIPELINE" status | sed 's/^/   /'

echo
echo "== pipeline export --user user-00001 (last 3 days)"
"$PIPELINE" export --user user-00001 | tail -3 | sed 's/^/   /'
