"""PLICAS (Friedrich & Schwind, ICEIS 2011): an opponent-modelling heads-up limit hold'em
agent built from small decision units whose probability triples are merged.

One module per unit, each a small function of the situation, the opponent model and the
precomputed tables:

* :mod:`.model` — the opponent model (frequencies per betting context, range, aggression,
  average pot) and :mod:`.weights` — its 1326-combo weight table, re-weighted after every
  opponent action, with :mod:`.calibration` learning from showdowns what its actions say;
  :mod:`.generic` — the frozen, sound opponent the static PLICAS reads hands against;
* :mod:`.preflop` — the preflop rule unit, :mod:`.dprc` — dynamic preflop range control;
* :mod:`.postflop` — the postflop rule unit, :mod:`.dpac` — dynamic postflop aggression
  control, :mod:`.casebase` — the case-based unit, :mod:`.bluff` — the bluff unit,
  :mod:`.foldequity` — the fold-equity unit, :mod:`.riversearch` — the river search
  (off by default);
* :mod:`.merge` — merge and decide; :mod:`.agent` wires them, :mod:`.config` switches them.

Importing this package imports nothing heavy; :mod:`.agent` loads the engine.
"""
