#!/bin/sh
# Start PostgreSQL for acpcbot serve (docker/compose.yaml's server profile). The first time
# (an empty $PGDATA) it makes the cluster and the database `acpcbot`, owned by the user
# `acpcbot`; connections come on the Unix socket in /run/postgresql only (trust: the socket is
# reachable only from the containers that mount its volume), never over TCP.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    initdb -D "$PGDATA" -U postgres -E UTF8 --auth-local=trust --auth-host=reject \
        --no-instructions >/dev/null
    pg_ctl -D "$PGDATA" -o "-c listen_addresses= -k /run/postgresql" -w -s start
    createuser -h /run/postgresql -U postgres acpcbot
    createdb -h /run/postgresql -U postgres -O acpcbot acpcbot
    pg_ctl -D "$PGDATA" -m fast -w -s stop
    echo "acpcbot-postgres: made the cluster in $PGDATA, database acpcbot"
fi
exec postgres -D "$PGDATA" -c listen_addresses= -c unix_socket_directories=/run/postgresql \
    -c unix_socket_permissions=0777
