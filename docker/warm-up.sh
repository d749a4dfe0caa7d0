#!/bin/sh
# Run at image build (docker/Dockerfile): does once what every container would otherwise do
# at its start.
# - numba: every agent plays a few hands in-process and over TCP (each agent's warm-up
#   reaches every kernel its decisions use; the dealer scores the showdowns) and the equity
#   command runs both ways (enumeration, Monte Carlo): the compiled kernels land in
#   $NUMBA_CACHE_DIR, inside the image.
# - Python: the modules these commands, the plots, the MQTT client and Dask's scheduler and
#   workers import are compiled to bytecode; the rest of the third-party packages is left as
#   source, which keeps the image small (pip installed them with --no-compile).
set -eu
work=$(mktemp -d)
cd "$work"
agents=$(acpcbot agents | awk '/^[a-z]/ && $1 != "Any" { print $1 }')
for agent in $agents; do
    acpcbot --log-level warning match "$agent" always-call --hands 20 --jobs 1 --out "$agent" \
        >/dev/null
done
acpcbot --log-level warning match example always-call --hands 20 --jobs 1 --transport tcp \
    --out tcp >/dev/null
acpcbot --log-level warning tournament always-call always-raise --hands 10 --seeds 1 --jobs 1 \
    --out tournament --plot >/dev/null
acpcbot results tournament/always-call-vs-always-raise.seed0.n10/*.log >/dev/null
acpcbot equity AhKh random --trials 1000 >/dev/null
acpcbot equity AhKh QsQd --board Qh7h2c >/dev/null
python -c 'import aiomqtt, paho.mqtt.client, uvloop, distributed, distributed.cli.dask_scheduler, distributed.cli.dask_worker'
dask scheduler --help >/dev/null
dask worker --help >/dev/null
cd /
rm -rf "$work"
