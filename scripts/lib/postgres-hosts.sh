#!/usr/bin/env bash
# Three hosts on a private network, for the test of PostgreSQL across hosts
# (Tests/CLITests/PostgreSQLAcrossHostsTests.swift): a PostgreSQL server in one network namespace and two
# workers in two others, each joined by a veth pair to a bridge in a fourth namespace, the network's switch.
# The server takes connections from the network only over TLS, with the role's password checked by
# scram-sha-256; its certificate, for db.pipeline.test, is signed by a throwaway CA. Each worker's /etc/hosts
# (/etc/netns/NAME/hosts, which `ip netns exec` binds over /etc/hosts) names the server.
#
# Usage: postgres-hosts.sh start FOLDER   sets it all up in FOLDER (an existing, empty folder) and prints what a
#                                         client needs as KEY=VALUE lines (below); the password is only ever in
#                                         the password file, never printed or on a command line.
#        postgres-hosts.sh stop FOLDER    stops the server, deletes the namespaces and their /etc/netns folders,
#                                         and removes FOLDER; safe on a half-made set-up, and twice.
# A start that fails says which step and why, and stops what it had started.
#
# Network namespaces need root. The server refuses to run as root, so it runs as the unprivileged `postgres`
# user, as the test cluster of scripts/lib/postgres.sh does. Durability settings are off: it lives for one test.
#
# What start prints, one per line:
#   SERVER_NAMESPACE, WORKER_NAMESPACES  the `ip netns exec` names (two workers, space-separated)
#   SERVER_ADDRESS, WORKER_ADDRESSES     their addresses on the private network
#   URL                                  the workers' address of the database: TLS verifying the server's
#                                        certificate and name against the CA (sslmode=verify-full, sslrootcert)
#   PASSFILE                             the role's password file (mode 0600), for PGPASSFILE
#   ROOT_CERT, OTHER_ROOT_CERT           the CA, and another CA that signed nothing of this server's
#   ADMIN_URL                            the superuser over the server's own Unix socket, for the test's checks
#   SERVER_LOG                           the server's log, one line per connection and how it was authenticated
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/postgres.sh"

SERVER_NAME=db.pipeline.test
NETWORK_PREFIX=10.77.0
SERVER_ADDRESS=$NETWORK_PREFIX.1
WORKER_ADDRESSES=("$NETWORK_PREFIX.11" "$NETWORK_PREFIX.12")

# _hosts_namespaces FOLDER: the namespaces of the set-up in FOLDER, the switch's last (as written before
# any is made, so that stop finds those a failed start left).
_hosts_namespaces() {
    cat "$1/namespaces" 2>/dev/null || true
}

start_hosts() {
    local folder=$1
    [ -d "$folder" ] && [ -z "$(ls -A "$folder")" ] || { echo "error: $folder is not an empty folder" >&2; return 1; }
    [ "$(id -u)" -eq 0 ] || { echo "error: network namespaces need root; run the tests as root" >&2; return 1; }
    folder=$(cd "$folder" && pwd)
    # The server's folder is the postgres user's alone; the CA's and the client's root's alone.
    chmod 0711 "$folder"
    mkdir -m 0700 "$folder/ca" "$folder/client" "$folder/server" "$folder/server/socket"
    chown -R postgres:postgres "$folder/server"

    # Names no other run uses at the same time: a namespace's name is global to the machine.
    local tag
    tag=$(openssl rand -hex 3)
    local server=pipeline-$tag-db worker_namespaces=("pipeline-$tag-w1" "pipeline-$tag-w2") switch=pipeline-$tag-sw
    printf '%s\n' "$server" "${worker_namespaces[@]}" "$switch" >"$folder/namespaces"

    HOSTS_STEP="the throwaway CA and the server's certificate"
    _hosts_certificates "$folder"
    HOSTS_STEP="the network namespaces"
    _hosts_network "$server" "$switch" "${worker_namespaces[@]}"
    HOSTS_STEP="the PostgreSQL server"
    _hosts_server "$folder" "$server"
    HOSTS_STEP=

    echo "SERVER_NAMESPACE=$server"
    echo "WORKER_NAMESPACES=${worker_namespaces[*]}"
    echo "SERVER_ADDRESS=$SERVER_ADDRESS"
    echo "WORKER_ADDRESSES=${WORKER_ADDRESSES[*]}"
    echo "URL=postgresql://pipeline@$SERVER_NAME:5432/pipeline?sslmode=verify-full&sslrootcert=$folder/client/root.crt"
    echo "PASSFILE=$folder/client/pgpass"
    echo "ROOT_CERT=$folder/client/root.crt"
    echo "OTHER_ROOT_CERT=$folder/client/other-root.crt"
    echo "ADMIN_URL=postgresql:///pipeline?host=$folder/server/socket&user=postgres"
    echo "SERVER_LOG=$folder/server/server.log"
}

# _hosts_certificates FOLDER: a CA, the server's key and certificate signed by it (its name in subjectAltName,
# which verify-full checks), and a second CA for a client that trusts the wrong one. EC P-256 keys, valid two
# days: they live for one test.
_hosts_certificates() {
    local ca=$1/ca server=$1/server log=$1/ca/openssl.log
    local authority
    for authority in ca other-ca; do
        openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
            -subj "/CN=pipeline test $authority" -addext basicConstraints=critical,CA:TRUE \
            -addext keyUsage=critical,keyCertSign,cRLSign -keyout "$ca/$authority.key" -out "$ca/$authority.crt" \
            >>"$log" 2>&1 || { cat "$log" >&2; return 1; }
    done
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$SERVER_NAME" \
        -keyout "$ca/server.key" -out "$ca/server.csr" >>"$log" 2>&1 || { cat "$log" >&2; return 1; }
    printf '%s\n' "subjectAltName=DNS:$SERVER_NAME" "basicConstraints=critical,CA:FALSE" \
        "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" >"$ca/server.ext"
    openssl x509 -req -in "$ca/server.csr" -CA "$ca/ca.crt" -CAkey "$ca/ca.key" -days 2 -extfile "$ca/server.ext" \
        -out "$ca/server.crt" >>"$log" 2>&1 || { cat "$log" >&2; return 1; }
    # The server reads its key only if the postgres user owns it and no one else may read it.
    install -m 0600 -o postgres -g postgres "$ca/server.key" "$server/server.key"
    install -m 0644 -o postgres -g postgres "$ca/server.crt" "$server/server.crt"
    rm "$ca/server.key"
    install -m 0644 "$ca/ca.crt" "$1/client/root.crt"
    install -m 0644 "$ca/other-ca.crt" "$1/client/other-root.crt"
}

# _hosts_network SERVER SWITCH WORKER…: the namespaces, a bridge in SWITCH, and one veth pair from it to each
# host, whose end is the host's eth0. Each host's /etc/hosts names the server and the workers.
_hosts_network() {
    local server=$1 switch=$2
    shift 2
    local hosts=("$server" "$@") addresses=("$SERVER_ADDRESS" "${WORKER_ADDRESSES[@]}")
    ip netns add "$switch"
    ip -n "$switch" link add bridge0 type bridge
    ip -n "$switch" link set bridge0 up
    local index
    for index in "${!hosts[@]}"; do
        local host=${hosts[$index]}
        ip netns add "$host"
        mkdir -p "/etc/netns/$host"
        {
            echo "127.0.0.1 localhost"
            echo "$SERVER_ADDRESS $SERVER_NAME"
            local worker
            for worker in "${!WORKER_ADDRESSES[@]}"; do
                echo "${WORKER_ADDRESSES[$worker]} worker-$((worker + 1)).pipeline.test"
            done
        } >"/etc/netns/$host/hosts"
        ip -n "$switch" link add "port$index" type veth peer name eth0 netns "$host"
        ip -n "$switch" link set "port$index" master bridge0 up
        ip -n "$host" addr add "${addresses[$index]}/24" dev eth0
        ip -n "$host" link set eth0 up
        ip -n "$host" link set lo up
    done
}

# _hosts_server FOLDER NAMESPACE: a cluster in FOLDER/server, started in NAMESPACE, listening on the private
# network with TLS, and the role `pipeline` with a random password, owner of the database `pipeline`.
_hosts_server() {
    local folder=$1 namespace=$2
    local server=$folder/server
    if ! _as_postgres_owner "$PIPELINE_POSTGRES_BIN/initdb" -D "$server/data" -U postgres --auth=reject \
        -E UTF8 --locale=C.UTF-8 >"$server/initdb.log" 2>&1; then
        cat "$server/initdb.log" >&2
        return 1
    fi
    _as_postgres_owner tee -a "$server/data/postgresql.conf" >/dev/null <<EOF

# Across hosts (scripts/lib/postgres-hosts.sh): TCP on the private network, TLS, passwords kept as SCRAM.
listen_addresses = '$SERVER_ADDRESS'
port = 5432
unix_socket_directories = '$server/socket'
ssl = on
ssl_cert_file = '$server/server.crt'
ssl_key_file = '$server/server.key'
password_encryption = 'scram-sha-256'
# One line per connection, with its client's address, how it was authenticated, and its TLS.
log_connections = on
log_line_prefix = '%m [%p] %r '
max_connections = 50
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
    # pg_hba.conf takes the first line that matches: from the network, only TLS with a SCRAM password; the
    # superuser only on the server's own socket, in a folder only the postgres user (and root) may enter.
    _as_postgres_owner tee "$server/data/pg_hba.conf" >/dev/null <<EOF
# TYPE   DATABASE  USER      ADDRESS               METHOD
local    all       postgres                        trust
hostssl  pipeline  pipeline  $NETWORK_PREFIX.0/24  scram-sha-256
EOF
    if ! _without_inherited_files ip netns exec "$namespace" runuser -u postgres -- "$PIPELINE_POSTGRES_BIN/pg_ctl" \
        -D "$server/data" -l "$server/server.log" -w -t 60 start >"$server/pg_ctl.log" 2>&1; then
        cat "$server/pg_ctl.log" "$server/server.log" >&2 2>/dev/null
        return 1
    fi
    # The password goes to the password file and, through a pipe, to the server: never on a command line. Its
    # statement is kept out of the server's log even if it fails (log_min_error_statement).
    local password
    password=$(openssl rand -hex 24)
    (umask 077 && printf '%s:5432:pipeline:pipeline:%s\n' "$SERVER_NAME" "$password" >"$folder/client/pgpass")
    printf "SET log_min_error_statement = panic;\nSET log_statement = none;\nCREATE ROLE pipeline LOGIN PASSWORD '%s';\n" \
        "$password" | "$PIPELINE_POSTGRES_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$server/socket" -U postgres \
        -d postgres >/dev/null
    "$PIPELINE_POSTGRES_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$server/socket" -U postgres -d postgres \
        -c "CREATE DATABASE pipeline OWNER pipeline" >/dev/null
}

# _without_inherited_files COMMAND…: runs COMMAND with only standard input, output and error open. The server
# outlives this script, and would hold open whatever else it inherited from the script's caller: Foundation's
# Process, which runs this script in the test, learns that its child ended when the child's end of a socket
# it hands down is closed by every process holding it, so it would wait for as long as the server runs.
_without_inherited_files() (
    local fd
    for fd in /proc/$BASHPID/fd/*; do
        fd=${fd##*/}
        if [ "$fd" -gt 2 ]; then
            eval "exec $fd>&-"
        fi
    done
    exec "$@"
)

stop_hosts() {
    local folder=$1
    [ -n "$folder" ] && [ -d "$folder" ] || return 0
    if [ -f "$folder/server/data/postmaster.pid" ]; then
        _as_postgres_owner "$PIPELINE_POSTGRES_BIN/pg_ctl" -D "$folder/server/data" -m immediate -w stop \
            >/dev/null 2>&1 || true
    fi
    local namespace
    for namespace in $(_hosts_namespaces "$folder"); do
        ip netns delete "$namespace" 2>/dev/null || true
        rm -rf "/etc/netns/$namespace"
    done
    rm -rf "$folder"
}

case "${1:-}" in
    start)
        [ $# -eq 2 ] || { echo "usage: $0 start FOLDER" >&2; exit 64; }
        # A step that fails ends the script (set -e); what it had started is then stopped.
        # (The trap runs in whichever function failed: it reads globals, not the script's arguments.)
        HOSTS_STEP=
        HOSTS_FOLDER=$2
        trap 'status=$?; if [ $status -ne 0 ]; then
                  [ -z "$HOSTS_STEP" ] || echo "error: could not set up $HOSTS_STEP" >&2
                  stop_hosts "$HOSTS_FOLDER"
              fi' EXIT
        start_hosts "$2"
        ;;
    stop)
        [ $# -eq 2 ] || { echo "usage: $0 stop FOLDER" >&2; exit 64; }
        stop_hosts "$2"
        ;;
    *)
        echo "usage: $0 start|stop FOLDER" >&2
        exit 64
        ;;
esac
