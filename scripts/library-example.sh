#!/usr/bin/env bash
# Compiles and runs the README's library example as a user would: the first ```swift block of the README's
# "## Library" section becomes the main.swift of scripts/library-example/, a package of its own that depends
# on this one by path; it runs in an empty folder, and its output and its database are checked against what
# the README says of them. Run by scripts/test.sh; prints "library example: ok" or fails.
set -euo pipefail
cd "$(dirname "$0")/.."
package=scripts/library-example
mkdir -p "$package/Sources"
awk '/^## Library/ { section = 1; next } /^## / { section = 0 }
     section && /^```swift$/ && !done { inside = 1; next }
     inside && /^```$/ { inside = 0; done = 1; next }
     inside { print }' README.md >"$package/Sources/main.swift"
if ! [ -s "$package/Sources/main.swift" ]; then
    echo "library example: the README has no \`\`\`swift block under '## Library'" >&2
    exit 1
fi
swift build --package-path "$package" -c "${PIPELINE_EXAMPLE_CONFIGURATION:-debug}" 2>&1 | grep -E "error|warning|Compiling library" || true
binary="$(swift build --package-path "$package" -c "${PIPELINE_EXAMPLE_CONFIGURATION:-debug}" --show-bin-path)/library-example"
folder="$(mktemp -d /tmp/pipeline-library-example.XXXXXX)"
trap 'rm -rf "$folder"' EXIT
(cd "$folder" && "$binary") >"$folder/output.txt" 2>"$folder/errors.txt" || {
    echo "library example: exited $?" >&2
    cat "$folder/output.txt" "$folder/errors.txt" >&2
    exit 1
}
# What the README says the example does: it retrains alice and says what serves her and why, forecasts
# tomorrow with an 80% interval, runs a launch in which every run succeeds, and keeps the data in a file
# only its owner can read.
fail() {
    echo "library example: $1" >&2
    cat "$folder/output.txt" "$folder/errors.txt" >&2
    exit 1
}
grep -q '^serving: ' "$folder/output.txt" || fail "no 'serving: …' reason from the retrain"
grep -qE '^tomorrow: severity [0-9]+, 80% interval [0-9]+–[0-9]+$' "$folder/output.txt" || fail "no forecast"
grep -qE '^launch: [1-9][0-9]* runs, 0 unsuccessful$' "$folder/output.txt" || fail "the launch did not run cleanly"
[ "$(stat -c %a "$folder/pipeline.sqlite")" = 600 ] || fail "the database file is not mode 0600"
[ ! -s "$folder/errors.txt" ] || fail "it wrote to standard error"
echo "library example: ok ($(wc -l <"$package/Sources/main.swift") lines of the README, built and run)"
