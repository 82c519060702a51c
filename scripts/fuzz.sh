#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (with AddressSanitizer) and runs each for SECONDS seconds
# (default 20), one after another: the JSON Lines decoder, the Apple Health scanner and the audit's
# tokenizer. Fails when a target crashes, trips a sanitizer, breaks one of its checks, hangs on one
# input for more than 10 s or uses more than 2 GB; the input that did it is saved under
# .build-fuzz/crashes/ and the command that replays it is printed.
#
# usage: scripts/fuzz.sh [SECONDS [TARGET…]]   (targets: FuzzJSONLines FuzzAppleHealth FuzzAuditTokenizer)
#
# The seeds — Fuzz/Corpus/<target>/, and the test fixtures of the Apple Health import and the audit
# (libFuzzer reads folders recursively) — are read, never written: what a run finds goes to a
# temporary folder, kept only with PIPELINE_FUZZ_KEEP=1 (its path is printed). Each target's last
# line reports libFuzzer's coverage (cov: edges, ft: features) and executions per second.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-20}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(FuzzJSONLines FuzzAppleHealth FuzzAuditTokenizer); fi
case "$seconds" in '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS [TARGET…]]" >&2; exit 64 ;; esac

# -enable-testing: the harnesses reach the scanner and the tokenizer, which are internal.
build=(swift build -c release --package-path Fuzz --scratch-path .build-fuzz
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -parse-as-library)
# ld.gold warns "Cannot export local symbol '__asan_…'" for every module: harmless, and hidden.
"${build[@]}" 2>&1 | grep -v "Cannot export local symbol" >&2 || true
bin="$("${build[@]}" --show-bin-path)"
for target in "${targets[@]}"; do
    [ -x "$bin/$target" ] || { echo "fuzz: $target was not built" >&2; exit 1; }
done

crashes=.build-fuzz/crashes
mkdir -p "$crashes"
failed=()
for target in "${targets[@]}"; do
    case "$target" in
        FuzzJSONLines) seeds=jsonlines; more=(); max_len=4096 ;;
        FuzzAppleHealth) seeds=apple-health; more=(Tests/IngestionTests/AppleHealth/Fixtures); max_len=8192 ;;
        FuzzAuditTokenizer) seeds=audit-tokenizer; more=(Tests/AuditTests/Fixtures); max_len=8192 ;;
        *) echo "fuzz: unknown target $target" >&2; exit 64 ;;
    esac
    found="$(mktemp -d)"
    log="$found.log"
    echo "fuzz: $target for ${seconds}s" >&2
    status=0
    # detect_leaks=0: the Swift runtime's caches live until exit, which LeakSanitizer would report.
    # SWIFT_BACKTRACE=enable=no: Swift's backtracer reads the crashed process's memory, which
    # AddressSanitizer then reports in place of the crash; libFuzzer prints the stack itself.
    ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no "$bin/$target" "$found" "Fuzz/Corpus/$seeds" "${more[@]}" -dict="Fuzz/$seeds.dict" \
        -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$crashes/$target-" -print_final_stats=1 >"$log" 2>&1 || status=$?
    done_line="$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)"
    if [ "$status" -ne 0 ]; then
        failed+=("$target")
        # The report: the sanitizer's or the check's message and the saved input.
        grep -E -A24 'ERROR: (AddressSanitizer|libFuzzer)|Fatal error|Precondition failed|deadly signal' "$log" \
            | head -60 >&2 || tail -40 "$log" >&2
        artifact="$(grep -oE "$crashes/$target-[a-z]+-[0-9a-f]+" "$log" | tail -1 || true)"
        echo "fuzz: $target FAILED (status $status)${artifact:+; replay with: $bin/$target $artifact}" >&2
    else
        echo "fuzz: $target ${done_line:-(no DONE line)}" >&2
    fi
    if [ "${PIPELINE_FUZZ_KEEP:-0}" = 1 ]; then
        echo "fuzz: $target's new inputs are in $found, its log in $log" >&2
    else
        rm -rf "$found" "$log"
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: failed: ${failed[*]}" >&2
    exit 1
fi
