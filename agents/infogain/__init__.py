"""Saund's information gain of bet inference, from logs that show every hand's cards.

* :mod:`.measure` — the three observers per decision point, the divergences per street;
* :mod:`.kernels` — numba: who wins between two weighted ranges on every runout;
* :mod:`.report` — the report as text and JSON; :mod:`.plot` — one PNG per street.

``acpcbot infogain`` is the command over them.
"""
