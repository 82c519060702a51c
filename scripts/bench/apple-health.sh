# Benchmark of `pipeline ingest --format apple-health` on a generated export (issue 7).
#
# Source this file, then call:  bench_apple_health /path/to/pipeline
#   APPLE_HEALTH_BENCH_MB   size of the generated export.xml in MB (default 1024)
#   APPLE_HEALTH_BENCH_SEED generator seed (default 7)
#
# Prints throughput and peak memory beside the aims (at least 100 MB/s, under 100 MB), and, as the
# baseline measured in the same run on the same cached file, the throughput of `wc -l`, which only
# reads every byte. Needs python3 (standard library only) and /usr/bin/time (Debian package `time`).

bench_apple_health() {
    local bin="$1"
    if [[ -z "$bin" || ! -x "$bin" ]]; then
        echo "usage: bench_apple_health PATH-TO-PIPELINE" >&2
        return 64
    fi
    if [[ ! -x /usr/bin/time ]]; then
        echo "bench_apple_health: /usr/bin/time is missing (apt-get install time)" >&2
        return 1
    fi
    local size_mb="${APPLE_HEALTH_BENCH_MB:-1024}"
    local seed="${APPLE_HEALTH_BENCH_SEED:-7}"
    local root dir
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    dir="$(mktemp -d)"
    local export="$dir/export.xml"

    python3 "$root/scripts/make-health-export.py" --size-mb "$size_mb" --seed "$seed" --out "$export" || {
        rm -rf "$dir"
        return 1
    }
    local bytes
    bytes=$(stat -c %s "$export")

    # The baseline runs first, so both runs read the file from the page cache.
    /usr/bin/time -f '%e %M' -o "$dir/baseline.time" wc -l "$export" >/dev/null
    if ! PIPELINE_DB="$dir/bench.sqlite" /usr/bin/time -f '%e %M' -o "$dir/import.time" \
        "$bin" ingest --format apple-health "$export" --user bench >"$dir/import.out" 2>"$dir/import.err"; then
        echo "bench_apple_health: the import failed:" >&2
        cat "$dir/import.err" >&2
        rm -rf "$dir"
        return 1
    fi

    local base_seconds import_seconds import_kb
    read -r base_seconds _ < <(tail -n 1 "$dir/baseline.time")
    read -r import_seconds import_kb < <(tail -n 1 "$dir/import.time")
    awk -v bytes="$bytes" -v seconds="$import_seconds" -v kb="$import_kb" -v base="$base_seconds" 'BEGIN {
        mb = bytes / 1e6
        if (seconds < 0.01) seconds = 0.01
        if (base < 0.01) base = 0.01
        rate = mb / seconds
        peak = kb / 1024
        printf "apple-health import: %.0f MB in %.2f s: %.0f MB/s (aim >= 100: %s), peak memory %.0f MB (aim < 100: %s)\n",
            mb, seconds, rate, (rate >= 100 ? "met" : "MISSED"), peak, (peak < 100 ? "met" : "MISSED")
        printf "  baseline, same file: wc -l %.0f MB/s; import at %.0f%% of it\n", mb / base, 100 * (mb / seconds) / (mb / base)
    }'
    rm -rf "$dir"
}
