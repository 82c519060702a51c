#!/usr/bin/env bash
# Time of `pipeline report` (issue 15: the report of 1,000 users in under 5 seconds, so it can run after
# every retrain).
#
# Source this file and call `bench_report PATH_TO_PIPELINE DATABASE NOW`. The database must hold a
# retrained cohort (models, run history). It times `pipeline report --out` of every user, best of three,
# and, as the baseline on the same database in the same run, `pipeline export --user U` of each of the
# same users one after another — the command an operator would use today to look at those users'
# days (one process per user, as it would be run).

bench_report() {
    local binary=$1 db=$2 now=$3
    local work users best=""
    work=$(mktemp -d "${TMPDIR:-/tmp}/report-bench.XXXXXX")
    # shellcheck disable=SC2064  # expand now: the directory to remove is known here
    trap "rm -rf '$work'; trap - RETURN" RETURN
    users=$(sqlite3 "$db" "SELECT count(*) FROM users")

    # Wall time, and the CPU time (user + system) of the same run: on a machine shared with other
    # work the wall time grows with the load, the CPU time much less.
    local run elapsed cpu best_cpu=""
    for run in 1 2 3; do
        rm -rf "$work/site"
        /usr/bin/time -f "%e %U %S" -o "$work/time" "$binary" report --out "$work/site" --db "$db" --now "$now" >/dev/null
        elapsed=$(cut -d' ' -f1 "$work/time")
        cpu=$(awk '{ printf "%.2f", $2 + $3 }' "$work/time")
        if [[ -z $best ]] || awk -v a="$elapsed" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$elapsed
            best_cpu=$cpu
        fi
    done
    local pages size
    pages=$(find "$work/site" -name '*.html' | wc -l)
    size=$(du -sm "$work/site" | cut -f1)

    sqlite3 "$db" "SELECT id FROM users ORDER BY id" >"$work/users"
    cat >"$work/export.sh" <<SH
while read -r user; do "$binary" export --user "\$user" --db "$db" >/dev/null; done <"$work/users"
SH
    /usr/bin/time -f "%e" -o "$work/time" bash "$work/export.sh"
    local export_seconds
    export_seconds=$(cat "$work/time")
    printf "  load average during the run: %s\n" "$(cut -d' ' -f1-3 /proc/loadavg)"

    printf "  pipeline report          %5d users in %6.2f s  (CPU %s s; %d pages, %d MB; best of 3)   (aim: under 5 s)\n" \
        "$users" "$best" "$best_cpu" "$pages" "$size"
    printf "  pipeline export --user   %5d users in %6.2f s  (one process per user)\n" "$users" "$export_seconds"
    printf "  time ratio (report / export of the same users): %s\n" \
        "$(awk -v a="$best" -v b="$export_seconds" 'BEGIN { printf "%.2f", a / b }')x"
}
