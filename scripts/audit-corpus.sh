#!/usr/bin/env bash
# Recall and false-alarm rate of `pipeline audit` on real apps, per rule, against the judged references in
# Tests/AuditTests/Corpus/references.tsv (repository, commit, path, line, rule, verdict, reason; no code).
#
#   scripts/audit-corpus.sh [--pipeline PATH] [--references FILE] CHECKOUTS
#
# CHECKOUTS is a folder holding one checkout per repository, named `owner+name` (as `git clone` into that name, or
# `git archive` of the listed commit unpacked there). This script fetches nothing: repositories missing from
# CHECKOUTS are listed and left out of the figures. A checkout that is a git work tree must be at the listed commit.
#
# A `mistake` row is a real background-execution mistake the rule should report at that line; a `correct` row a
# correct use at that line the rule must not report. Recall = mistakes reported / mistakes; false-alarm rate =
# correct uses reported / correct uses. Findings at places no row judges are counted apart, per rule.
set -euo pipefail
cd "$(dirname "$0")/.."

pipeline=".build/release/pipeline"
references="Tests/AuditTests/Corpus/references.tsv"
while (( $# > 0 )); do
    case "$1" in
        --pipeline) pipeline=$2; shift 2 ;;
        --references) references=$2; shift 2 ;;
        -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "audit-corpus.sh: unknown option $1" >&2; exit 64 ;;
        *) break ;;
    esac
done
if (( $# != 1 )); then
    echo "usage: scripts/audit-corpus.sh [--pipeline PATH] [--references FILE] CHECKOUTS" >&2
    exit 64
fi
checkouts=$1
if [[ ! -d $checkouts ]]; then echo "audit-corpus.sh: $checkouts is not a folder" >&2; exit 64; fi
if [[ ! -x $pipeline ]]; then
    echo "audit-corpus.sh: $pipeline is not built (swift build -c release --static-swift-stdlib --product pipeline)" >&2
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/audit-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT

# One audit per repository, each on its own so that no repository's code changes another's findings.
missing=()
while IFS=$'\t' read -r repository commit _; do
    [[ $repository == \#* || -z $repository ]] && continue
    folder="$checkouts/${repository/\//+}"
    [[ -f $work/${repository/\//+}.json || -f $work/${repository/\//+}.missing ]] && continue
    if [[ ! -d $folder ]]; then
        missing+=("$repository")
        touch "$work/${repository/\//+}.missing"
        continue
    fi
    if [[ -d $folder/.git ]]; then
        head=$(git -C "$folder" rev-parse HEAD)
        if [[ $head != "$commit" ]]; then
            echo "audit-corpus.sh: $folder is at $head, the references judge $commit" >&2
            exit 1
        fi
    fi
    status=0
    "$pipeline" audit "$folder" --json --fail-on low > "$work/${repository/\//+}.json" || status=$?
    if (( status > 1 )); then
        echo "audit-corpus.sh: pipeline audit $folder exited with $status" >&2
        exit 1
    fi
done < "$references"

python3 - "$references" "$work" "$checkouts" <<'PY'
import json, os, sys
from collections import defaultdict

references, work, checkouts = sys.argv[1:4]
rows = []
for line in open(references, encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    repository, commit, path, number, rule, verdict, reason = line.rstrip("\n").split("\t")
    assert verdict in ("mistake", "correct"), f"{references}: unknown verdict {verdict!r}"
    rows.append((repository, path, int(number), rule, verdict))

reported = {}
for repository in {row[0] for row in rows}:
    result = os.path.join(work, repository.replace("/", "+") + ".json")
    if not os.path.exists(result):
        continue
    prefix = os.path.join(checkouts, repository.replace("/", "+")) + "/"
    found = set()
    for finding in json.load(open(result, encoding="utf-8"))["findings"]:
        path = finding["file"][len(prefix):] if finding["file"].startswith(prefix) else finding["file"]
        found.add((path, finding["line"], finding["rule"]))
    reported[repository] = found

counts = defaultdict(lambda: {"mistakes": 0, "found": 0, "correct": 0, "alarms": 0, "unjudged": 0})
judged = defaultdict(set)
for repository, path, number, rule, verdict in rows:
    if repository not in reported:
        continue
    judged[repository].add((path, number, rule))
    hit = (path, number, rule) in reported[repository]
    entry = counts[rule]
    if verdict == "mistake":
        entry["mistakes"] += 1
        entry["found"] += hit
    else:
        entry["correct"] += 1
        entry["alarms"] += hit
for repository, found in reported.items():
    for path, number, rule in found - judged[repository]:
        counts[rule]["unjudged"] += 1

def ratio(numerator, denominator):
    return f"{100 * numerator / denominator:5.1f}%" if denominator else "    - "

width = max([len(rule) for rule in counts] + [4])
print(f"{len(reported)} repositories audited, {sum(1 for r in rows if r[0] in reported)} judged places")
print(f"{'rule':<{width}}  mistakes found  recall   correct alarms  false-alarm rate  unjudged findings")
total = defaultdict(int)
for rule in sorted(counts):
    entry = counts[rule]
    for key, value in entry.items():
        total[key] += value
    print(f"{rule:<{width}}  {entry['mistakes']:8d} {entry['found']:5d}  {ratio(entry['found'], entry['mistakes'])}"
          f"  {entry['correct']:7d} {entry['alarms']:6d}  {ratio(entry['alarms'], entry['correct']):>16}"
          f"  {entry['unjudged']:17d}")
print(f"{'all':<{width}}  {total['mistakes']:8d} {total['found']:5d}  {ratio(total['found'], total['mistakes'])}"
      f"  {total['correct']:7d} {total['alarms']:6d}  {ratio(total['alarms'], total['correct']):>16}"
      f"  {total['unjudged']:17d}")
PY
if (( ${#missing[@]} > 0 )); then
    echo "not in $checkouts (left out): ${missing[*]}"
fi
