"""The client's default limits, and the protocol's version line (nothing heavy is imported,
so that the command line can show them in ``--help`` without loading the client)."""

from acpcbot.protocol.constants import VERSION_LINE

__all__ = ["DEFAULT_BUDGET_MS", "DEFAULT_CONNECT_TIMEOUT", "DEFAULT_READ_TIMEOUT", "VERSION_LINE"]

DEFAULT_CONNECT_TIMEOUT = 10.0
"""Seconds to wait for the TCP connection."""
DEFAULT_READ_TIMEOUT = 900.0
"""Seconds without a byte from the dealer before giving up. The reference dealer waits up
to 600 s (``--t_response``) for the other player's every action, so this must be longer."""
DEFAULT_BUDGET_MS = 1000.0
"""The command line's time per decision: five or so decisions a hand stay well inside the
reference dealer's 7 s per hand on average (``--t_per_hand``)."""
