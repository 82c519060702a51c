#!/usr/bin/env bash
# Measures pipeline against a baseline run in the same session on the same data, and prints each
# figure beside its baseline and their ratio. Release build; takes a few minutes.
#
#   scripts/bench.sh            every benchmark
#   scripts/bench.sh NAME       one of: ingest, retrain, instructions, evaluate, real, memory, audit, apple-health,
#                               report, postgres, postgres-ingest, retention, scale, night
#                               (postgres, postgres-ingest, retention, scale and night are not part of `all`: postgres
#                               starts a server and takes ~10 min, postgres-ingest its ingestion figures alone ~1 min,
#                               retention what pruning costs a launch on both backends ~3 min; scale
#                               retrains 100,000 users; night loads and retrains 200,000 users on both backends,
#                               about half an hour)
#
# Figures vary with the machine and its load; compare ratios, not absolute numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/dependencies.sh
ensure_packages "${PIPELINE_PACKAGES[@]}" "${PIPELINE_SERVER_PACKAGES[@]}"

# Built as README's "Running it from cron" builds it, the Swift runtime and Foundation linked in (both products
# alike, so neither build undoes the other's).
swift build -c release --static-swift-stdlib --product pipeline >&2
swift build -c release --static-swift-stdlib --product pipeline-bench >&2
PIPELINE="$PWD/.build/release/pipeline"
FITS="$PWD/.build/release/pipeline-bench"
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

# Ingestion and both baselines are measured BENCH_REPEAT times (3), one after another in each repetition, and
# printed as the min and the median of the times and of each repetition's ratios.
bench_ingest() {
    local repeats="${BENCH_REPEAT:-3}"
    echo "== ingest: pipeline generate --users $USERS --days $DAYS, then pipeline ingest ($repeats repetitions)"
    "$PIPELINE" generate --users "$USERS" --days "$DAYS" --now "$NOW" >"$WORK/cohort.jsonl"
    local records
    records=$(wc -l <"$WORK/cohort.jsonl")
    rm -f "$WORK/ingest.sqlite"*
    "$PIPELINE" ingest "$WORK/cohort.jsonl" --db "$WORK/ingest.sqlite" --now "$NOW" >/dev/null

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

    # A second baseline: every column of the same rows inserted into pipeline's own daily_logs table (its
    # STRICT types, CHECK constraints and primary key, from the ingested database's schema), so the ratio
    # also shows what the table itself costs. CSV has no NULL and .import into a STRICT table refuses an
    # empty field, so the rows are first imported, untimed, into an untyped table of another file; the time
    # is one INSERT … SELECT from it that turns empty fields into NULL: every row arrives (counted below).
    # Like the first, it checks no foreign key.
    sqlite3 -csv "$WORK/ingest.sqlite" "SELECT * FROM daily_logs" >"$WORK/all-columns.csv"
    local names values schema
    names=$(sqlite3 "$WORK/ingest.sqlite" "SELECT group_concat(name, ', ') FROM pragma_table_info('daily_logs')")
    values=$(sqlite3 "$WORK/ingest.sqlite" \
        "SELECT group_concat(CASE WHEN type IN ('INTEGER', 'REAL') THEN 'CAST(nullif(' || name || ', '''') AS ' || type
             || ')' ELSE 'nullif(' || name || ', '''')' END, ', ') FROM pragma_table_info('daily_logs')")
    schema=$(sqlite3 "$WORK/ingest.sqlite" ".schema daily_logs")
    rm -f "$WORK/staged.sqlite"*
    sqlite3 "$WORK/staged.sqlite" "CREATE TABLE staged ($names);" ".mode csv" ".import $WORK/all-columns.csv staged"
    {
        echo "PRAGMA synchronous = NORMAL;"
        echo "ATTACH '$WORK/staged.sqlite' AS source;"
        echo "INSERT INTO daily_logs SELECT $values FROM source.staged;"
    } >"$WORK/import-schema.sql"

    local ours=() baselines=() same_tables=() ratios=() same_ratios=() ours_one baseline same_table loaded
    for _ in $(seq "$repeats"); do
        rm -f "$WORK/ingest.sqlite"*
        ours_one=$(seconds "$PIPELINE" ingest "$WORK/cohort.jsonl" --db "$WORK/ingest.sqlite" --now "$NOW")
        rm -f "$WORK/import.sqlite"*
        baseline=$(seconds sqlite3 "$WORK/import.sqlite" ".read $WORK/import.sql")
        rm -f "$WORK/import-schema.sqlite"*
        printf 'PRAGMA journal_mode = WAL;\n%s\n' "$schema" | sqlite3 "$WORK/import-schema.sqlite" >/dev/null
        same_table=$(seconds sqlite3 "$WORK/import-schema.sqlite" ".read $WORK/import-schema.sql")
        loaded=$(sqlite3 "$WORK/import-schema.sqlite" "SELECT count(*) FROM daily_logs")
        [ "$loaded" -eq "$rows" ] || { echo "the same-table baseline loaded $loaded of $rows rows" >&2; return 1; }
        ours+=("$ours_one") baselines+=("$baseline") same_tables+=("$same_table")
        ratios+=("$(ratio "$ours_one" "$baseline")") same_ratios+=("$(ratio "$ours_one" "$same_table")")
    done
    printf "  pipeline ingest   %9d records in %s s   (min / median; %s records/s at the median)\n" "$records" \
        "$(min_median "${ours[@]}" | sed 's| | / |')" "$(rate "$records" "$(min_median "${ours[@]}" | cut -d' ' -f2)")"
    printf "  sqlite3 .import   %9d rows    in %s s   (nine columns, no constraints)\n" \
        "$rows" "$(min_median "${baselines[@]}" | sed 's| | / |')"
    printf "  sqlite3 INSERT    %9d rows    in %s s   (every column, INSERT … SELECT into pipeline's daily_logs)\n" \
        "$rows" "$(min_median "${same_tables[@]}" | sed 's| | / |')"
    printf "  time ratio (pipeline / sqlite3), min / median of the repetitions: %s   (aim: at most 1.5x)\n" \
        "$(min_median "${ratios[@]}" | sed 's|\([0-9.]*\) \([0-9.]*\)|\1x / \2x|')"
    printf "  time ratio (pipeline / sqlite3 into the same table), min / median: %s\n" \
        "$(min_median "${same_ratios[@]}" | sed 's|\([0-9.]*\) \([0-9.]*\)|\1x / \2x|')"
    printf "  each repetition, pipeline / .import: %s\n" "$(paste -d/ <(printf '%s\n' "${ours[@]}") \
        <(printf '%s\n' "${baselines[@]}") | tr '\n' ' ')"

    # An ingestion costs what its input holds, not what the database holds: nine users' lines (the cohort's
    # first nine) into a database of BENCH_HELD_USERS other users, beside the same lines into an empty database.
    local held="${BENCH_HELD_USERS:-1000000}" lines into_held=() into_empty=() held_ratios=() one_held one_empty
    grep -E '"user":"user-0000[1-9]"' "$WORK/cohort.jsonl" >"$WORK/nine-users.jsonl"
    lines=$(wc -l <"$WORK/nine-users.jsonl")
    rm -f "$WORK/held-base.sqlite"*
    "$PIPELINE" init --db "$WORK/held-base.sqlite" >/dev/null
    sqlite3 "$WORK/held-base.sqlite" "WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $held)
        INSERT INTO users (id, time_zone, created_at) SELECT printf('held-%07d', i), 'Europe/Berlin', 0 FROM n"
    for _ in $(seq "$repeats"); do
        rm -f "$WORK/held.sqlite"* "$WORK/empty.sqlite"*
        cp "$WORK/held-base.sqlite" "$WORK/held.sqlite"
        sync  # else the copy's dirty pages are written out by the ingestion's first fsync, and timed with it
        one_held=$(seconds "$PIPELINE" ingest "$WORK/nine-users.jsonl" --db "$WORK/held.sqlite" --now "$NOW")
        one_empty=$(seconds "$PIPELINE" ingest "$WORK/nine-users.jsonl" --db "$WORK/empty.sqlite" --now "$NOW")
        into_held+=("$one_held") into_empty+=("$one_empty") held_ratios+=("$(ratio "$one_held" "$one_empty")")
    done
    printf "  nine users' %d lines into %d users' database in %s s, into an empty one in %s s (min / median)\n" \
        "$lines" "$held" "$(min_median "${into_held[@]}" | sed 's| | / |')" \
        "$(min_median "${into_empty[@]}" | sed 's| | / |')"
    printf "  time ratio (held / empty), min / median: %s   (aim: about 1x)\n" \
        "$(min_median "${held_ratios[@]}" | sed 's|\([0-9.]*\) \([0-9.]*\)|\1x / \2x|')"
}

# python VENV: scikit-learn, pinned, in scripts/reference/.venv (created on first use).
reference_python() {
    local venv="scripts/reference/.venv"
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import sklearn, threadpoolctl" 2>/dev/null; then
        ensure_packages python3-venv
        python3 -m venv "$venv" >&2
        "$venv/bin/pip" install --quiet -r scripts/reference/requirements.txt >&2
    fi
    echo "$PWD/$venv/bin/python"
}

# peak_kb COMMAND...: runs COMMAND and prints its peak resident memory in KB (GNU time).
peak_kb() {
    /usr/bin/time -f "%M" -o "$WORK/peak" "$@" >/dev/null 2>"$WORK/stderr" || { cat "$WORK/stderr" >&2; return 1; }
    cat "$WORK/peak"
}

# A database holding `pipeline generate --users N --days D`, built once per size and copied per run.
cohort_database() {
    local users="$1" days="$2" path="$WORK/cohort-$1-$2.sqlite"
    if [ ! -f "$path" ]; then
        "$PIPELINE" generate --users "$users" --days "$days" --now "$NOW" |
            "$PIPELINE" ingest - --db "$path" --now "$NOW" >&2
    fi
    echo "$path"
}

# fresh_copy SOURCE DEST: DEST becomes a copy of the database SOURCE. The -wal and -shm files of an
# earlier DEST go first: SQLite would replay a write-ahead log left beside the new file (a launch that
# exits before closing its connection leaves its log, which is safe for its own database) onto the copy.
fresh_copy() {
    rm -f "$2" "$2-wal" "$2-shm"
    cp "$1" "$2"
}

# export_features DATABASE [LIMIT]: the design matrix of every user served a personal model (the first
# LIMIT by user id), as `pipeline features` prints it, into $WORK/features/USER.csv.
export_features() {
    mkdir -p "$WORK/features"
    local user
    for user in $(sqlite3 "$1" \
        "SELECT scope FROM model_artifacts WHERE source = 'personal' ORDER BY scope LIMIT ${2:--1}"); do
        "$PIPELINE" features --user "$user" --db "$1" >"$WORK/features/$user.csv"
    done
}

# fit_instructions DIRECTORY [select]: instructions per user that `pipeline-bench` executes inside
# `ModelTrainer.fit` (scaler, RidgeCV by exact leave-one-out, logistic head) on the first
# $INSTRUCTION_USERS matrices of DIRECTORY, counted by callgrind; with `select`, inside the whole of
# `ModelTrainer.train` (the personal fit, the rolling-origin folds, scoring, the served artifact). Unlike a
# time, the count does not move with the machine's load, so a change that makes the fits 5% slower shows in
# one run.
INSTRUCTION_USERS=20
fit_instructions() {
    ensure_packages valgrind binutils
    local sample="$WORK/instruction-sample"
    rm -rf "$sample" && mkdir -p "$sample"
    ls "$1" | head -n "$INSTRUCTION_USERS" | while read -r file; do cp "$1/$file" "$sample/"; done
    local users
    users=$(ls "$sample" | wc -l)
    local collect='$s8Learning12ModelTrainerV3fit*' mode=()
    if [ "${2:-}" = select ]; then collect='$s8Learning12ModelTrainerV5train*' mode=(--select); fi
    # Valgrind 3.19 cannot read the DWARF 5 that clang writes for the C kernels (LearningKernels), and
    # callgrind needs only the symbol table: it runs a copy without debug information.
    objcopy --strip-debug "$FITS" "$WORK/pipeline-bench"
    valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.out" \
        "--toggle-collect=$collect" "$WORK/pipeline-bench" "$sample" --workers 1 --repeat 1 "${mode[@]}" \
        >/dev/null 2>"$WORK/callgrind.log" || { cat "$WORK/callgrind.log" >&2; return 1; }
    local total
    total=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$WORK/callgrind.log" | tr -d ,)
    awk -v t="$total" -v u="$users" 'BEGIN { printf "%.2f M", t / u / 1e6 }'
}

bench_instructions() {
    echo "== instructions: the fit loop under callgrind, $INSTRUCTION_USERS users of $USERS x $DAYS days"
    local source
    source=$(cohort_database "$USERS" "$DAYS")
    fresh_copy "$source" "$WORK/instructions.sqlite"
    "$PIPELINE" retrain --db "$WORK/instructions.sqlite" --now "$NOW"
    export_features "$WORK/instructions.sqlite" "$INSTRUCTION_USERS"
    printf "  instructions per user of the fit loop: %s\n" "$(fit_instructions "$WORK/features")"
    printf "  instructions per user of the whole selection: %s\n" "$(fit_instructions "$WORK/features" select)"
}

# min_median V1 V2 …: the smallest and the median of the values, as "MIN MEDIAN".
min_median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%s %s", v[1], v[int((NR + 1) / 2)] }'; }

# faster SOURCE DATABASE COMMAND...: the faster of two runs of COMMAND, each on a fresh copy of SOURCE at
# DATABASE (a retrain writes its database; the bare read leaves it as it was).
faster() {
    local source="$1" database="$2"
    shift 2
    local first second
    fresh_copy "$source" "$database"
    first=$(seconds "$@")
    fresh_copy "$source" "$database"
    second=$(seconds "$@")
    awk -v a="$first" -v b="$second" 'BEGIN { print (a < b ? a : b) }'
}

# Each figure of the retrain benchmark is measured BENCH_REPEAT times (3), baseline and all, and printed as
# the min and the median of its ratios to the baseline of the same repetition. In each repetition the whole
# retrains and the bare read are each the faster of two back-to-back runs, alike: on a shared machine a load
# that comes and goes within seconds otherwise moved the ratio of one repetition by up to a third.
bench_retrain() {
    local repeats="${BENCH_REPEAT:-3}"
    echo "== retrain: $USERS users x $DAYS days, pipeline retrain on a freshly ingested database ($repeats repetitions)"
    # The CPU and the kernels OpenBLAS runs for pipeline (the last "Core:" line: after a second load, if any) move
    # the figures more than most changes do; they change between machines of the same kind.
    printf "  CPU: %s; OpenBLAS kernels: %s\n" "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" \
        "$(OPENBLAS_VERBOSE=2 "$PIPELINE" --help 2>&1 >/dev/null | sed -n 's/^Core: //p' | tail -n 1)"
    local source
    source=$(cohort_database "$USERS" "$DAYS")
    local cores
    cores=$(nproc)
    fresh_copy "$source" "$WORK/one.sqlite"
    "$PIPELINE" retrain --db "$WORK/one.sqlite" --now "$NOW" --jobs 1 >/dev/null
    # scikit-learn on the matrices of the same fits, exported by `pipeline features`.
    export_features "$WORK/one.sqlite"
    local exported
    exported=$(ls "$WORK/features" | wc -l)
    local python
    python=$(reference_python)

    local run one all read sklearn fits_one fits_all
    local ones=() alls=() reads=() whole=() fit_one_ratios=() fit_all_ratios=() sklearns=() rates_one=() rates_all=()
    for run in $(seq "$repeats"); do
        one=$(faster "$source" "$WORK/one.sqlite" "$PIPELINE" retrain --db "$WORK/one.sqlite" --now "$NOW" --jobs 1)
        all=$(faster "$source" "$WORK/all.sqlite" \
            "$PIPELINE" retrain --db "$WORK/all.sqlite" --now "$NOW" --jobs "$cores")
        read=$(faster "$source" "$WORK/read.sqlite" sqlite3 "$WORK/read.sqlite" "SELECT * FROM daily_logs ORDER BY user_id, day")
        "$python" scripts/reference/bench_sklearn.py "$WORK/features" --repeat 3 >"$WORK/sklearn.json"
        sklearn=$("$python" -c "import json,sys; print(json.load(open(sys.argv[1]))['users_per_second'])" \
            "$WORK/sklearn.json")
        # Each pass fits every matrix four times (0.8 s on one core, 0.4 s on two), the fastest of three.
        fits_one=$("$FITS" "$WORK/features" --workers 1 --rounds 4 | sed 's/.*"users_per_second":\([0-9.]*\).*/\1/')
        fits_all=$("$FITS" "$WORK/features" --workers "$cores" --rounds 4 \
            | sed 's/.*"users_per_second":\([0-9.]*\).*/\1/')
        ones+=("$one") alls+=("$all") reads+=("$read") sklearns+=("$sklearn")
        rates_one+=("$(printf "%.0f" "$fits_one")") rates_all+=("$(printf "%.0f" "$fits_all")")
        whole+=("$(ratio "$all" "$read")")
        fit_one_ratios+=("$(ratio "$fits_one" "$sklearn")") fit_all_ratios+=("$(ratio "$fits_all" "$sklearn")")
        printf "  run %d: retrain %.2f s (1 core), %.2f s (%d cores); bare read %.2f s; fits %.0f / %.0f users/s, scikit-learn %.1f\n" \
            "$run" "$one" "$all" "$cores" "$read" "$fits_one" "$fits_all" "$sklearn"
    done
    local instructions
    instructions=$(fit_instructions "$WORK/features")
    local selection
    selection=$(fit_instructions "$WORK/features" select)

    echo "  the fits alone, on the $exported matrices 'pipeline features' exported (scaler, RidgeCV, logistic), min / median:"
    printf "    scikit-learn, 1 core        %s users/s\n" "$(min_median "${sklearns[@]}" | sed 's| | / |')"
    printf "    pipeline, 1 core            %s users/s   %sx scikit-learn   (aim: at least 15x)\n" \
        "$(min_median "${rates_one[@]}" | sed 's| | / |')" "$(min_median "${fit_one_ratios[@]}" | sed 's| | / |')"
    printf "    pipeline, %d cores           %s users/s   %sx scikit-learn   (aim: at least 30x)\n" \
        "$cores" "$(min_median "${rates_all[@]}" | sed 's| | / |')" "$(min_median "${fit_all_ratios[@]}" | sed 's| | / |')"
    printf "    instructions per user of the fit loop (callgrind, %s matrices; the same binary and data\n" "$INSTRUCTION_USERS"
    printf "    give the same count on a busy machine): %s; of the whole selection (train): %s\n" "$instructions" "$selection"
    echo "  the whole retrain (read, features, population, fits, selection, batched atomic saves, run history), min / median:"
    printf "    pipeline retrain, 1 core    %s s\n" "$(min_median "${ones[@]}" | sed 's| | / |')"
    printf "    pipeline retrain, %d cores   %s s   (%s users/s at the median)\n" "$cores" \
        "$(min_median "${alls[@]}" | sed 's| | / |')" "$(rate "$USERS" "$(min_median "${alls[@]}" | cut -d' ' -f2)")"
    printf "  sqlite3 bare read of the same %s rows: %s s\n" "$(sqlite3 "$source" "SELECT count(*) FROM daily_logs")" \
        "$(min_median "${reads[@]}" | sed 's| | / |')"
    printf "  whole retrain / bare read of the same run: %sx   (aim: at most 2x)\n" \
        "$(min_median "${whole[@]}" | sed 's| | / |')"
}

# Forecast quality, not speed: `pipeline evaluate` walks the last 28 days forward on the same cohort
# and prints the served forecasts' error beside each baseline's, computed in the same run on the same days.
bench_evaluate() {
    local users="${BENCH_EVALUATE_USERS:-300}"
    echo "== evaluate: pipeline evaluate --days 28 on $users users x $DAYS days (served forecasts against the baselines)"
    local source
    source=$(cohort_database "$users" "$DAYS")
    local started ended
    started=$(date +%s.%N)
    "$PIPELINE" evaluate --days 28 --db "$source" --now "$NOW" | sed 's/^/  /'
    ended=$(date +%s.%N)
    printf "  walk-forward time: %.1f s (28 population pools and %s user retrains)\n" \
        "$(awk -v a="$started" -v b="$ended" 'BEGIN { print b - a }')" "$((users * 28))"
}

bench_memory() {
    local small="${BENCH_MEMORY_SMALL:-1000}" large="${BENCH_MEMORY_USERS:-10000}"
    echo "== memory: peak resident memory of pipeline retrain, $small and $large users x $DAYS days"
    local size peaks=()
    for size in "$small" "$large"; do
        local source
        source=$(cohort_database "$size" "$DAYS")
        fresh_copy "$source" "$WORK/memory.sqlite"
        peaks+=("$(peak_kb "$PIPELINE" retrain --db "$WORK/memory.sqlite" --now "$NOW")")
        rm -f "$WORK/memory.sqlite"*
    done
    printf "  %6d users: %4d MB peak\n" "$small" "$((peaks[0] / 1024))"
    printf "  %6d users: %4d MB peak   (aim: within 1.5x of the smaller cohort's)\n" "$large" "$((peaks[1] / 1024))"
    printf "  growth for %sx the users: %sx\n" "$(ratio "$large" "$small")" "$(ratio "${peaks[1]}" "${peaks[0]}")"
}

# The cohort at scale: BENCH_SCALE_USERS (100,000) users x BENCH_SCALE_DAYS (90) days generated, ingested and
# retrained, beside 1,000 users x the same days in the same run. Not part of `all`: it takes several minutes
# and a few GB of disk.
bench_scale() {
    local big="${BENCH_SCALE_USERS:-100000}" small=1000 days="${BENCH_SCALE_DAYS:-90}" cores
    cores=$(nproc)
    echo "== scale: $small and $big users x $days days, generated, ingested and retrained ($cores jobs)"
    local size rates=() peaks=() ingests=() rows=() bytes=()
    for size in "$small" "$big"; do
        local db="$WORK/scale-$size.sqlite"
        rm -f "$db"*
        /usr/bin/time -f "%e" -o "$WORK/ingest-time" \
            bash -c "'$PIPELINE' generate --users $size --days $days --now $NOW |
                '$PIPELINE' ingest - --db '$db' --now $NOW >/dev/null"
        ingests+=("$(cat "$WORK/ingest-time")")
        /usr/bin/time -f "%e %M" -o "$WORK/retrain-time" \
            "$PIPELINE" retrain --db "$db" --now "$NOW" --jobs "$cores" >/dev/null
        local seconds peak
        read -r seconds peak <"$WORK/retrain-time"
        rates+=("$(rate "$size" "$seconds")")
        peaks+=("$peak")
        rows+=("$(sqlite3 "$db" "SELECT count(*) FROM daily_logs")")
        sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
        bytes+=("$(stat -c %s "$db")")
        printf "  %7d users: ingest %7.1f s, retrain %7.1f s = %6s users/s, peak %5d MB, %s user-days, %s database bytes per user-day\n" \
            "$size" "${ingests[-1]}" "$seconds" "${rates[-1]}" "$((peak / 1024))" "${rows[-1]}" \
            "$(rate "${bytes[-1]}" "${rows[-1]}")"
    done
    printf "  retrain users/s at %s users / at %s users: %sx   (aim: at least 0.85x)\n" \
        "$big" "$small" "$(ratio "${rates[1]}" "${rates[0]}")"
    printf "  peak memory at %s users / at %s users: %sx   (aim: at most 1.5x)\n" \
        "$big" "$small" "$(ratio "${peaks[1]}" "${peaks[0]}")"
    rm -f "$WORK"/scale-*.sqlite*
}

source scripts/bench/apple-health.sh
source scripts/bench/audit.sh
source scripts/bench/postgres.sh
source scripts/bench/retention.sh
source scripts/bench/night.sh
source scripts/bench/report.sh

run_audit() {
    echo "== audit: pipeline audit on a generated tree of Swift files, one core"
    bench_audit "$PIPELINE"
}

run_report() {
    echo "== report: pipeline report of $USERS users x $DAYS days after a retrain, beside pipeline export of each"
    fresh_copy "$(cohort_database "$USERS" "$DAYS")" "$WORK/report.sqlite"
    "$PIPELINE" retrain --db "$WORK/report.sqlite" --now "$NOW"
    bench_report "$PIPELINE" "$WORK/report.sqlite" "$NOW"
}

# Forecast quality on real people (scripts/bench/real.py): PMData's 16 participants, each person's last 21 logged
# mornings, the served forecast beside the simple forecasters on the same mornings.
bench_real() {
    echo "== real: PMData's first months (Tests/Fixtures/pmdata-early), each person's last 21 logged mornings"
    mkdir -p "$WORK/real"
    python3 scripts/bench/real.py "$PIPELINE" Tests/Fixtures/pmdata-early "$WORK/real" 21
}

run_apple_health() {
    echo "== apple-health: pipeline ingest --format apple-health on a generated ${APPLE_HEALTH_BENCH_MB:-1024} MB export"
    bench_apple_health "$PIPELINE"
}

what="${1:-all}"
case "$what" in
    ingest) bench_ingest ;;
    retrain) bench_retrain ;;
    instructions) bench_instructions ;;
    evaluate) bench_evaluate ;;
    real) bench_real ;;
    memory) bench_memory ;;
    audit) run_audit ;;
    apple-health) run_apple_health ;;
    report) run_report ;;
    postgres) bench_postgres ;;
    postgres-ingest) bench_postgres_ingest ;;
    retention) bench_retention ;;
    scale) bench_scale ;;
    night) bench_night ;;
    all)
        bench_ingest
        bench_retrain
        bench_evaluate
        bench_real
        bench_memory
        run_audit
        run_apple_health
        run_report
        ;;
    *) echo "unknown benchmark: $what (expected: ingest, retrain, instructions, evaluate, real, memory, audit, apple-health, report, postgres, postgres-ingest, retention, scale, night)" >&2; exit 64 ;;
esac
