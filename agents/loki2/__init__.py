"""loki2: a Loki-2-style simulation player (Billings, Peña, Schaeffer & Szafron 1999).

* :mod:`.agent` — the agent: a weight table over the opponent's holdings re-weighted by its
  fitted betting policy, and the decision by simulation;
* :mod:`.simulation` — the numba kernel of selective-sampling simulation and the
  obvious-move cut-off;
* :mod:`.config` — its options.

Importing this package imports nothing heavy; the agent loads the kernels in
``begin_match``.
"""
