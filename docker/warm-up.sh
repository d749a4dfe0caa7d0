#!/bin/sh
# Run at image build (docker/Dockerfile), and by the test suite in its virtual environment
# (tests/docker/test_warm_up.py): does once what every container would otherwise do at its
# start.
# - numba: every agent `acpcbot agents --specs` lists (an agent that needs an option is given
#   the example its registry entry declares) plays a few hands against always-call in one
#   tournament, and one match is played over TCP by a PLICAS that freezes (each agent's
#   warm-up reaches every kernel its decisions use; the dealer scores the showdowns); the
#   equity command runs both ways (enumeration, Monte Carlo): the compiled kernels land
#   in $NUMBA_CACHE_DIR, in the image.
# - Python: the modules these commands, the plots, the MQTT client, Dask's scheduler and
#   workers, and the benchmark server (its migrations, PostgreSQL's driver) import are
#   compiled to bytecode; the rest of the third-party packages is left as
#   source, which keeps the image small (pip installed them with --no-compile).
set -eu
work=$(mktemp -d)
cd "$work"
specs=$(acpcbot agents --specs)
[ -n "$specs" ] || { echo "warm-up: acpcbot agents --specs listed no agent" >&2; exit 1; }
# shellcheck disable=SC2086  # one spec a word
acpcbot --log-level warning tournament --vs always-call $(echo "$specs" | grep -vx always-call) \
    --hands 20 --seeds 1 --jobs 1 --out agents --plot >/dev/null
acpcbot results agents/always-call-vs-dpp.seed0.n20/*.log >/dev/null
# Over TCP, a PLICAS that freezes (none of the listed specs does): it also compiles the sweep
# its frozen strategy reads every holding with.
acpcbot --log-level warning match plicas:freeze-after=0 always-call --hands 2 --jobs 1 \
    --transport tcp --out tcp >/dev/null
acpcbot equity AhKh random --trials 1000 >/dev/null
acpcbot equity AhKh QsQd --board Qh7h2c >/dev/null
python -c 'import aiomqtt, paho.mqtt.client, uvloop, distributed, distributed.cli.dask_scheduler, distributed.cli.dask_worker'
# The benchmark server: its database made and migrated (SQLite here), a user's password
# hashed, and the PostgreSQL driver and the Dask executor imported.
acpcbot serve --data server user add warm-up >/dev/null
acpcbot serve --data server user list | grep -q '^warm-up '
python -c 'import psycopg, sqlalchemy.dialects.postgresql.psycopg, dealer.benchmark.daskpool, dealer.benchmark.serving'
dask scheduler --help >/dev/null
dask worker --help >/dev/null
cd /
rm -rf "$work"
