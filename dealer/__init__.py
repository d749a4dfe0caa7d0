"""dealer: everything that referees, runs and reads matches, in five subpackages by job.

* :mod:`dealer.referee` — the referee and the wire: one match dealt, refereed and logged as
  the ACPC reference dealer does it, in-process or over TCP; the ``acpc-dealer`` command.
* :mod:`dealer.analysis` — analysing logs: results, statistics, AIVAT, crosstables,
  rankings, plots.
* :mod:`dealer.running` — running matches: duplicate matches, their result folders and
  summaries, tournaments on a local pool or a Dask cluster.
* :mod:`dealer.web` — the web page over them (``acpcbot web``): live matches, replays of
  logs, a person at a seat.
* :mod:`dealer.benchmark` — the benchmark server (``acpcbot serve``), compatible with the
  ACPC's ``bm_server``: a service on top of the runners.

Imports run one way: ``benchmark`` → ``web`` → ``running`` → ``analysis`` → ``referee`` →
:mod:`acpcbot` (the core). The dealer runs the agents it is handed and never names one: it
imports nothing of :mod:`agents` (contracts in ``pyproject.toml``).
"""
