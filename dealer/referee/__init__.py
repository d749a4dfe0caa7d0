"""The referee and the wire: one match refereed exactly as the ACPC reference dealer does it.

* :class:`Referee` (:mod:`.referee`) holds one match: the cards (:mod:`.dealing`, on the
  reference's MT19937, :mod:`.rng`), every action applied through :mod:`acpcbot.rules`,
  the time limits (:mod:`.timing`), the ``.log`` (:mod:`.matchlog`), the transaction log
  (:mod:`.tlog`) and the reference's stderr (:mod:`.transcript`). :class:`MatchConfig`
  (:mod:`.config`) says what the match is.
* The wire: :func:`play_in_process` (:mod:`.inprocess`, the players called directly, with
  the match states of :mod:`.views`) or :func:`referee_over_tcp` (:mod:`.server`, with
  :mod:`.listeners`, :mod:`.seat`, :mod:`.blockingseat` and the hand loop
  :mod:`.handloop`); a match that ends early raises :class:`MatchAbortedError`.
* Beside the log: every decision's probabilities (:mod:`.decisionlog`, for AIVAT), each
  ``STATE`` line handed on as it is written (:mod:`.logtee`).
* The ``acpc-dealer`` command (:mod:`.cli`): the reference's command line, resuming a match
  from its logs (:mod:`.resume`), with a progress line and MQTT telemetry
  (:mod:`.livematch`).

This package imports nothing else of the dealer's (a contract in ``pyproject.toml``).

One hand refereed step by step, as a transport does it for its players: seat 2 (the small
blind) raises, seat 1 folds its big blind.

>>> from acpcbot.game import bundled_game
>>> from acpcbot.rules import FOLD, RAISE
>>> referee = Referee(MatchConfig("m", bundled_game(), "g.game", 1, 42, ("A", "B")))
>>> referee.take(RAISE).type, referee.take(FOLD).type
(<ActionType.RAISE: 'r'>, <ActionType.FOLD: 'f'>)
>>> referee.finish_hand()
(-10.0, 10.0)
"""

from dealer.referee.config import MatchConfig as MatchConfig
from dealer.referee.config import TimeLimits as TimeLimits
from dealer.referee.dealing import DealStream as DealStream
from dealer.referee.decisionlog import DecisionRecorder as DecisionRecorder
from dealer.referee.decisionlog import decisions_path as decisions_path
from dealer.referee.decisionlog import read_decisions as read_decisions
from dealer.referee.faults import MatchAbortedError as MatchAbortedError
from dealer.referee.inprocess import PlayerFailedError as PlayerFailedError
from dealer.referee.inprocess import play_in_process as play_in_process
from dealer.referee.listeners import Listeners as Listeners
from dealer.referee.matchlog import LogLines as LogLines
from dealer.referee.matchlog import MatchLog as MatchLog
from dealer.referee.referee import Referee as Referee
from dealer.referee.resume import Resumption as Resumption
from dealer.referee.server import referee_over_tcp as referee_over_tcp
from dealer.referee.tlog import Transaction as Transaction
from dealer.referee.tlog import TransactionLog as TransactionLog
from dealer.referee.tlog import read_transactions as read_transactions
from dealer.referee.transcript import Transcript as Transcript
