"""The small exception hierarchy shared by every acpcbot package.

Every error the project raises on purpose derives from :class:`AcpcError`, so a command
line can catch that one class, print its message and exit non-zero without a traceback.
"""

from __future__ import annotations


class AcpcError(Exception):
    """Base class of every error acpcbot raises on purpose."""


class UsageError(AcpcError):
    """A request that cannot be carried out as made, whatever the files, the network and the
    agents: an option's value, options that do not go together, an unknown agent. The
    command line exits 2 on it (as on its own parsing errors), 1 on any other error."""


class CardError(AcpcError, ValueError):
    """Text that is not a card, or a card code out of range."""


class GameDefinitionError(AcpcError, ValueError):
    """A ``.game`` file that cannot be read; the message names the line."""


class MatchStateError(AcpcError, ValueError):
    """A ``MATCHSTATE`` or ``STATE`` line that does not parse or is not a legal state."""


class IllegalActionError(AcpcError, ValueError):
    """An action the betting rules do not allow in the current state."""


class ProtocolError(AcpcError):
    """The other end of a connection broke the ACPC protocol (framing, content, EOF)."""


class ConnectError(AcpcError):
    """Could not connect to the dealer: refused, unreachable or timed out."""


class ConnectionLostError(ProtocolError):
    """The dealer closed or reset the connection in the middle of a hand or of a line."""


class DealerTimeoutError(ProtocolError):
    """The dealer sent nothing for longer than the client's read timeout."""


class BadStateError(ProtocolError):
    """The dealer sent a line that is not a valid ``MATCHSTATE`` for the game, or a state
    that does not follow the previous one."""


class UnsupportedGameError(UsageError, ValueError):
    """An agent, a solver or a tool that cannot handle the game it was given (say, a
    heads-up limit hold'em agent in a no-limit game)."""
