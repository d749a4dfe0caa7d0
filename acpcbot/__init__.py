"""acpcbot: the shared core of the acpcbot heads-up limit hold'em bot.

Cards, game definitions, match states and their ACPC text codec, the single betting-rules
module, hand evaluation, the asyncio protocol client and the command line. This package
knows nothing of any agent or of the dealer.
"""

__version__ = "0.1.0"
