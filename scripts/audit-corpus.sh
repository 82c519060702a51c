#!/usr/bin/env bash
# Recall and false-alarm rate of `pipeline audit` on real apps, per rule, against the judged references in
# Tests/AuditTests/Corpus/references.tsv (repository, commit, path, line, rule, verdict, reason; no code).
#
#   scripts/audit-corpus.sh [--pipeline PATH] [--references FILE] [--rows] CHECKOUTS
#
# CHECKOUTS is a folder holding one checkout per repository, named `owner+name` (as `git clone` into that name, or
# `git archive` of the listed commit unpacked there). This script fetches nothing: repositories missing from
# CHECKOUTS are listed and left out of the figures. A checkout that is a git work tree must be at the listed commit.
#
# A `mistake` row is a real background-execution mistake the rule should report at that line; a `correct` row a
# correct use at that line the rule must not report. Recall = mistakes reported / mistakes; false-alarm rate =
# correct uses reported / correct uses. Findings at places no row judges are counted apart, per rule.
#
# A path that leaves through a `guard … else {` or an `if … {` written over several lines (up to 16) is one place:
# the audit reports it at the `return` (or `throw`) that leaves, and a row may judge it at any line of the condition.
# A finding at that exit and a row at a line from the `guard` or `if` to its opening brace (or the reverse) are
# matched, one finding to one row, when the exit is the first statement of the block's own level that leaves, or the
# one-line block (`else { return }`) that ends the condition's last line. So are a `case …:` or `default:` line and
# the first `return` (or `throw`) of its clause's own level, before the next clause, a `catch` line and the first
# `return` (or `throw`) of its block's own level, a plain `} else {` whose block
# does not leave and the `return` (or `throw`) right after its `if`, and a request made
# (`BGAppRefreshTaskRequest(identifier: …)`) and the first `submit(` of it within 12 lines. So are a finding at the
# `func` line of the function a registration names as its handler, whose message names the registration (`registered
# at File.swift:N`), and a row at that registration. --rows lists every missed mistake, every alarm and every finding at a place no row
# judges (`outside`).
set -euo pipefail
cd "$(dirname "$0")/.."

pipeline=".build/release/pipeline"
references="Tests/AuditTests/Corpus/references.tsv"
rows=0
while (( $# > 0 )); do
    case "$1" in
        --pipeline) pipeline=$2; shift 2 ;;
        --references) references=$2; shift 2 ;;
        --rows) rows=1; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "audit-corpus.sh: unknown option $1" >&2; exit 64 ;;
        *) break ;;
    esac
done
if (( $# != 1 )); then
    echo "usage: scripts/audit-corpus.sh [--pipeline PATH] [--references FILE] [--rows] CHECKOUTS" >&2
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

python3 - "$references" "$work" "$checkouts" "$rows" <<'PY'
import json, os, re, sys
from collections import defaultdict

references, work, checkouts, list_rows = sys.argv[1:5]
rows = []
for line in open(references, encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    repository, commit, path, number, rule, verdict, reason = line.rstrip("\n").split("\t")
    assert verdict in ("mistake", "correct"), f"{references}: unknown verdict {verdict!r}"
    rows.append((repository, path, int(number), rule, verdict))

reported = {}
REGISTERED_AT = re.compile(r"\(registered at ([^:()\s]+):(\d+)")
registrations = defaultdict(list)
for repository in {row[0] for row in rows}:
    result = os.path.join(work, repository.replace("/", "+") + ".json")
    if not os.path.exists(result):
        continue
    prefix = os.path.join(checkouts, repository.replace("/", "+")) + "/"
    found = set()
    for finding in json.load(open(result, encoding="utf-8"))["findings"]:
        path = finding["file"][len(prefix):] if finding["file"].startswith(prefix) else finding["file"]
        found.add((path, finding["line"], finding["rule"]))
        # A finding in the function a registration names, which names the registration too: one place with it.
        named = REGISTERED_AT.search(finding["message"])
        if named:
            registrations[repository].append(((path, finding["line"], finding["rule"]), named[1], int(named[2])))
    reported[repository] = found

CONDITION = re.compile(r"^\s*(?:\}\s*else\s+)?(?:guard|if)\b")
# A condition is read over at most this many lines (a `guard` binding a dozen payload fields, one per line).
CONDITION_LINES = 16
EXIT = re.compile(r"^\s*(?:return|throw)\b")
REQUEST = re.compile(r"\bBG\w*TaskRequest\(\s*identifier:")
SUBMIT = re.compile(r"\.submit\(")
CLAUSE = re.compile(r"^\s*(?:case\b[^:]*|default)\s*:\s*$")
ELSE = re.compile(r"^\s*\}\s*else\s*\{\s*$")
CATCH = re.compile(r"^\s*(?:\}\s*)?catch\b[^{}]*\{\s*$")
INLINE_EXIT = re.compile(r"\{\s*(?:return|throw)\b[^{}]*\}\s*$")
exits_cache = {}
FUNCTION = re.compile(r"^\s*(?:(?:@\w+|private|fileprivate|public|internal|open|static|final|override|nonisolated)\s+)*func\b")

lines_cache = {}

def source_lines(repository, path):
    """The lines of a checked-out file, read once; none when it cannot be read."""
    key = (repository, path)
    if key not in lines_cache:
        try:
            with open(os.path.join(checkouts, repository.replace("/", "+"), path), encoding="utf-8",
                      errors="replace") as source:
                lines_cache[key] = source.read().split("\n")
        except OSError:
            lines_cache[key] = []
    return lines_cache[key]

def declares_function(repository, path, number):
    """Whether line `number` of the file declares a function (`func handleRefresh(task: BGAppRefreshTask) {`)."""
    lines = source_lines(repository, path)
    return 0 < number <= len(lines) and bool(FUNCTION.match(lines[number - 1]))

def condition_exits(repository, path):
    """Pairs (line of a `guard`/`if` condition, line of the exit that leaves its block) for conditions written over
    several lines; a line's braces are counted outside string literals and `//` comments."""
    key = (repository, path)
    if key in exits_cache:
        return exits_cache[key]
    pairs = set()
    lines = source_lines(repository, path)
    def braces(line):
        line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line).split("//")[0]
        return line.count("{") - line.count("}")
    for start, line in enumerate(lines):
        if not CONDITION.match(line):
            continue
        end = start
        inline = None
        while end < len(lines) and end < start + CONDITION_LINES and braces(lines[end]) <= 0 and not lines[end].rstrip().endswith("{"):
            # `else { return }` closing a condition written over several lines: the exit is on its last line.
            if end > start and INLINE_EXIT.search(lines[end].split("//")[0]):
                inline = end
                break
            end += 1
        if inline is not None:
            for header in range(start, inline):
                pairs.add((header + 1, inline + 1))
            continue
        if end >= len(lines) or end >= start + CONDITION_LINES:
            continue
        depth = braces(lines[end]) if end > start or not CONDITION.match(lines[end]) else 1
        depth = max(depth, 1)
        for body in range(end + 1, min(len(lines), end + 12)):
            if depth == 1 and EXIT.match(lines[body]):
                if body != start:
                    for header in range(start, end + 1):
                        pairs.add((header + 1, body + 1))
                break
            depth += braces(lines[body])
            if depth <= 0:
                break
    # A `case …:` or `default:` written on one line and the first exit of its clause's own level, before the next
    # clause: the branch where a path leaves and the `return` it leaves by are one place.
    for start, line in enumerate(lines):
        if not CLAUSE.match(line.split("//")[0]):
            continue
        depth = 0
        for body in range(start + 1, min(len(lines), start + 12)):
            if depth == 0 and CLAUSE.match(lines[body].split("//")[0]):
                break
            if depth == 0 and EXIT.match(lines[body]):
                pairs.add((start + 1, body + 1))
                break
            depth += braces(lines[body])
            if depth < 0:
                break
    # A `catch` (`} catch {`, `catch let error as URLError {`) and the first exit of its block's own level: the clause
    # a path leaves by and the `return` it leaves at are one place.
    for start, line in enumerate(lines):
        if not CATCH.match(line.split("//")[0]):
            continue
        depth = 1
        for body in range(start + 1, min(len(lines), start + 12)):
            if depth == 1 and EXIT.match(lines[body]):
                pairs.add((start + 1, body + 1))
                break
            depth += braces(lines[body])
            if depth <= 0:
                break
    # A plain `} else {` whose block has no exit of its own and the `return` (or `throw`) the path reaches right after
    # the `if`: the branch a path leaves by and the exit it leaves at are one place.
    for start, line in enumerate(lines):
        if not ELSE.match(line.split("//")[0]):
            continue
        depth = 1
        body = start + 1
        leaves = False
        while body < len(lines) and depth > 0:
            if EXIT.match(lines[body]):
                leaves = True
            depth += braces(lines[body])
            body += 1
        if leaves:
            continue
        for after in range(body, min(len(lines), body + 3)):
            if not lines[after].strip():
                continue
            if EXIT.match(lines[after]):
                pairs.add((start + 1, after + 1))
            break
    # A request made (`BGAppRefreshTaskRequest(identifier: …)`) and the first `submit(` after it, within 12 lines of
    # its function: the request a rule names, by its identifier or by its submit, is one place.
    for start, line in enumerate(lines):
        if not REQUEST.search(line.split("//")[0]):
            continue
        for body in range(start + 1, min(len(lines), start + 12)):
            if REQUEST.search(lines[body]) or re.match(r"^\s*(?:(?:private|public|static|@objc)\s+)*func\b", lines[body]):
                break
            if SUBMIT.search(lines[body].split("//")[0]):
                pairs.add((start + 1, body + 1))
                break
    exits_cache[key] = pairs
    return pairs

counts = defaultdict(lambda: {"mistakes": 0, "found": 0, "correct": 0, "alarms": 0, "unjudged": 0})
judged = defaultdict(set)
listed = []
# Exact matches first, then a row and a finding at two lines of one condition, each finding used once.
pending = []
for repository, path, number, rule, verdict in rows:
    if repository not in reported:
        continue
    exact = (path, number, rule) in reported[repository]
    if exact:
        judged[repository].add((path, number, rule))
    pending.append((repository, path, number, rule, verdict, exact))
for repository, path, number, rule, verdict, exact in pending:
    hit = exact
    if not hit:
        pairs = condition_exits(repository, path)
        for other in sorted({line for _, line in pairs if (number, line) in pairs}
                            | {line for line, _ in pairs if (line, number) in pairs}):
            place = (path, other, rule)
            if place in reported[repository] and place not in judged[repository]:
                judged[repository].add(place)
                hit = True
                break
    if not hit:
        for place, name, line in registrations[repository]:
            if (place[2], name, line) == (rule, os.path.basename(path), number) and place not in judged[repository] \
                    and declares_function(repository, place[0], place[1]):
                judged[repository].add(place)
                hit = True
                break
    judged[repository].add((path, number, rule))
    entry = counts[rule]
    if verdict == "mistake":
        entry["mistakes"] += 1
        entry["found"] += hit
        if not hit:
            listed.append(f"missed  {repository} {path}:{number} {rule}")
    else:
        entry["correct"] += 1
        entry["alarms"] += hit
        if hit:
            listed.append(f"alarm   {repository} {path}:{number} {rule}")
for repository, found in sorted(reported.items()):
    for path, number, rule in sorted(found - judged[repository]):
        counts[rule]["unjudged"] += 1
        listed.append(f"outside {repository} {path}:{number} {rule}")

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
if list_rows == "1":
    print("\n".join(listed))
PY
if (( ${#missing[@]} > 0 )); then
    echo "not in $checkouts (left out): ${missing[*]}"
fi
