#!/usr/bin/env bash
# Throughput of `pipeline audit` (DESIGN §10: at least 1,000 files a second on one core).
#
# Source this file and call `bench_audit PATH_TO_PIPELINE`. It builds a synthetic tree of Swift files
# (AUDIT_BENCH_FILES, default 5,000, about 200 lines each): file i holds fixture i of the audit's corpus
# (registrations, handlers, sessions, push callbacks; right and wrong) followed by ordinary app code (a model, a
# view model with closures, `async` calls, `switch`, string interpolation, comments) up to 200 lines, with every
# declared type name and "com.example" made unique per file. It times `pipeline audit TREE --json` pinned to one
# core (taskset, when present), best of three, by wall clock and by CPU time (user + system, GNU time): on a machine
# shared with other work the wall clock counts the time the pinned core spent on other processes, so the aim
# (1,000 files a second on one core) is judged on CPU time, with the load average printed beside it. The baseline,
# measured in the same run on the same tree, is reading every file with `cat`, so the figure can be judged against
# the disk and cache of the machine.

# Where this file lives, fixed when it is sourced: the caller may change directory before calling.
BENCH_AUDIT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

bench_audit() {
    local binary=$1
    if [[ ! -x $binary ]]; then
        echo "bench_audit: $binary is not an executable" >&2
        return 1
    fi
    local root=$BENCH_AUDIT_ROOT work count
    work=$(mktemp -d "${TMPDIR:-/tmp}/audit-bench.XXXXXX")
    count=${AUDIT_BENCH_FILES:-5000}
    # Removes the tree when the function returns, then clears itself so other functions' returns are untouched.
    # shellcheck disable=SC2064  # expand now: the directory to remove is known here
    trap "rm -rf '$work'; trap - RETURN" RETURN

    local -a templates
    mapfile -t templates < <(find "$root/Tests/AuditTests/Fixtures" -name '*.swift' | LC_ALL=C sort)
    if (( ${#templates[@]} == 0 )); then
        echo "bench_audit: no fixtures under $root/Tests/AuditTests/Fixtures" >&2
        return 1
    fi
    local module
    for module in $(seq 0 49); do mkdir -p "$work/tree/Module$module"; done

    # Ordinary code that makes up most of an app, appended after the fixture until the file has 200 lines.
    cat > "$work/filler.swift" <<'FILLER'

/// A day of entries, as the list shows it.
struct EntrySummary: Identifiable, Hashable {
    let id: UUID
    var title: String
    var mood: Int?
    var tags: [String] = []

    var label: String { mood.map { "\(title) (\($0)/5)" } ?? title }
}

@MainActor
final class EntryListModel: ObservableObject {
    @Published private(set) var entries: [EntrySummary] = []
    @Published var filter = ""
    private let store: EntryStore

    init(store: EntryStore) {
        self.store = store
    }

    /* Loads lazily; /* nested notes */ the store caches the last page. */
    func load() async {
        do {
            let loaded = try await store.entries(matching: filter)
            entries = loaded.sorted { $0.title < $1.title }
        } catch {
            print("could not load entries: \(error.localizedDescription)")
        }
    }

    func tagged(_ tag: String) -> [EntrySummary] {
        entries.filter { $0.tags.contains(tag) }.map { entry in
            var copy = entry
            copy.title = copy.title.trimmingCharacters(in: .whitespaces)
            return copy
        }
    }

    func describe(_ entry: EntrySummary) -> String {
        switch entry.mood {
        case .some(let mood) where mood >= 4: return "good day: \(entry.label)"
        case .some: return "day: \(entry.label)"
        case .none: return #"no mood for "\#(entry.title)""#
        }
    }
}

struct EntryRow: View {
    let entry: EntrySummary
    var onDelete: () -> Void = {}

    var body: some View {
        HStack {
            Text(entry.label)
            Spacer()
            Button("Delete", role: .destructive) { onDelete() }
        }
        .padding(.vertical, 4)
    }
}
FILLER

    # Type names the fixtures and the filler declare; each gets a per-file suffix so that files do not share
    # declarations.
    local types
    types=$(grep -hoE '(class|struct|enum|actor|protocol) [A-Z][A-Za-z0-9]*' "${templates[@]}" "$work/filler.swift" \
        | awk '{ print $2 }' | LC_ALL=C sort -u | paste -sd '|' -)

    # One awk process writes every file (the fixtures, then the filler, are its inputs).
    awk -v count="$count" -v out="$work/tree" -v types="$types" -v fixtures="${#templates[@]}" '
        FNR == 1 { input++ }
        { lines[input, FNR] = $0; sizes[input] = FNR }
        function emit(t, i, file,    n, line) {
            for (n = 1; n <= sizes[t]; n++) {
                line = lines[t, n]
                gsub(/com\.example/, "com.example.m" i, line)
                gsub("(" types ")", "&" i, line)
                print line > file
            }
            return sizes[t]
        }
        END {
            filler = fixtures + 1
            for (i = 1; i <= count; i++) {
                file = out "/Module" (i % 50) "/File" i ".swift"
                written = emit((i - 1) % fixtures + 1, i, file)
                while (written < 200) written += emit(filler, i, file)
                close(file)
            }
        }
    ' "${templates[@]}" "$work/filler.swift"

    local pin=()
    if command -v taskset > /dev/null; then pin=(taskset -c 0); fi
    local best="" best_cpu="" elapsed cpu start status run
    for run in 1 2 3; do
        start=$(date +%s.%N)
        status=0
        /usr/bin/time -f "%U %S" -o "$work/cpu" "${pin[@]}" "$binary" audit "$work/tree" --json > /dev/null \
            || status=$?
        elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
        # 1 means findings at or above --fail-on, which this tree has on purpose.
        if (( status > 1 )); then
            echo "bench_audit: pipeline audit exited with $status" >&2
            return 1
        fi
        cpu=$(awk 'END { print $1 + $2 }' "$work/cpu")
        if [[ -z $best ]] || awk -v e="$elapsed" -v b="$best" 'BEGIN { exit !(e < b) }'; then best=$elapsed; fi
        if [[ -z $best_cpu ]] || awk -v e="$cpu" -v b="$best_cpu" 'BEGIN { exit !(e < b) }'; then best_cpu=$cpu; fi
    done
    local baseline=""
    for run in 1 2 3; do
        start=$(date +%s.%N)
        find "$work/tree" -name '*.swift' -exec cat {} + > /dev/null
        elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
        if [[ -z $baseline ]] || awk -v e="$elapsed" -v b="$baseline" 'BEGIN { exit !(e < b) }'; then
            baseline=$elapsed
        fi
    done
    local lines rate cpu_rate read_rate load
    lines=$(find "$work/tree" -name '*.swift' -exec cat {} + | wc -l)
    rate=$(awk -v n="$count" -v t="$best" 'BEGIN { print n / t }')
    cpu_rate=$(awk -v n="$count" -v t="$best_cpu" 'BEGIN { print n / t }')
    read_rate=$(awk -v n="$count" -v t="$baseline" 'BEGIN { print n / t }')
    load=$(cut -d ' ' -f 1 /proc/loadavg 2> /dev/null || echo "?")
    printf 'audit: %.0f files per CPU-second (aim ≥ 1000); %d files, %d lines in %.2f s of CPU on one core\n' \
        "$cpu_rate" "$count" "$lines" "$best_cpu"
    printf '       wall clock %.2f s, %.0f files/s (load average %s); reading them with cat: %.0f files/s\n' \
        "$best" "$rate" "$load" "$read_rate"
}
