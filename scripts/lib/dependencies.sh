# Installs the Debian packages pipeline needs, if any is missing. Sourced by the other scripts.
#
# Usage: ensure_packages PACKAGE...
# Runs `apt-get update` at most once, then `apt-get install -y` for the missing packages only, as
# root or through sudo. Prints nothing when everything is already installed, and one line naming
# what it installs otherwise: apt's and dpkg's output goes to a log, shown only when they fail.

ensure_packages() {
    local missing=()
    local package
    for package in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        return 0
    fi
    local run=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            run=(sudo)
        else
            echo "error: missing packages ${missing[*]}; install them as root: apt-get install -y ${missing[*]}" >&2
            return 1
        fi
    fi
    echo "installing ${missing[*]} (apt-get; a minute or two)" >&2
    local log
    log=$(mktemp /tmp/pipeline-apt.XXXXXX)
    if [ -z "${PIPELINE_APT_UPDATED:-}" ]; then
        if ! "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$log" 2>&1; then
            cat "$log" >&2
            rm -f "$log"
            return 1
        fi
        export PIPELINE_APT_UPDATED=1
    fi
    if ! "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        return 1
    fi
    rm -f "$log"
}

# What building, testing and the demo need: OpenBLAS (libopenblas.so.0, which pipeline loads at run time),
# SQLite and libpq with their headers, pkg-config to find them, time zone data for users' zones, the sqlite3
# shell (tests build a foreign database with it), zip/unzip for Apple Health export archives, GNU time for the
# benchmarks, and python3 for the Apple Health export generator (its test and the benchmark).
PIPELINE_PACKAGES=(libopenblas-dev libsqlite3-dev sqlite3 libpq-dev pkg-config tzdata zip unzip time python3)

# What the tests and benchmarks add: the PostgreSQL 15 server and psql, for a throwaway cluster; Chromium, which
# the report's browser test runs headless; and iproute2 and openssl, with which the test across hosts puts a
# server and two workers in network namespaces of their own and gives the server a certificate of a throwaway CA
# (scripts/lib/postgres-hosts.sh).
PIPELINE_SERVER_PACKAGES=(postgresql postgresql-client chromium iproute2 openssl)
