"""The dpp-like opponent: a static ε-equilibrium from CFR+ on a card abstraction.

Modules, in the order data flows:

* :mod:`agents.common.bettingtree` (shared with ``loki2``) — the betting tree of a
  two-player limit game, from the rules;
* :mod:`~agents.dpp.infoset` — information-set keys (``<betting>:<bucket>``) and rows;
* :mod:`~agents.dpp.chance` — an abstract game's chance model (and limit Leduc's, exact);
* :mod:`~agents.dpp.kernels`, :mod:`~agents.dpp.solver` — CFR+ and exact best response;
* :mod:`~agents.dpp.enumeration` — best response by enumerating real deals (small games);
* :mod:`~agents.dpp.handstrength`, :mod:`~agents.dpp.isomorphism`,
  :mod:`~agents.dpp.tables`, :mod:`~agents.dpp.abstraction` — the HULHE card abstraction;
* :mod:`~agents.dpp.strategy` — strategy files; :mod:`~agents.dpp.agent` — the agents.

Only the agent module is imported when an agent is created; numba is imported by the
kernels, the hand-strength code and the table builder, when they are first used.
"""
