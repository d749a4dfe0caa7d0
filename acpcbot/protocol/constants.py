"""The ACPC protocol's fixed words and sizes, shared by the dealer's and the client's sides.

No imports, so that anything (``--help`` included) can read them for free.

>>> VERSION_LINE
b'VERSION:2.0.0\\r\\n'
>>> VERSION == (2, 0, 0) and MATCHSTATE_PREFIX == "MATCHSTATE:"
True
"""

VERSION = (2, 0, 0)
"""The protocol version this project speaks (the reference dealer's ``VERSION_MAJOR`` ...)."""
VERSION_PREFIX = "VERSION:"
VERSION_LINE = b"VERSION:2.0.0\r\n"
"""The first line a player sends."""
MATCHSTATE_PREFIX = "MATCHSTATE:"
"""How every state the dealer sends starts."""
MAX_LINE_BYTES = 4096
"""The reference's ``MAX_LINE_LEN``: a line and its terminator fit in 4096 bytes."""
MAX_HANDS = 2**32 - 1
"""The most hands a match may have: the reference dealer's count (and its logs' hand
numbers) are 32-bit."""
COMMENT_STARTS = (b"#", b";")
"""A line starting with one of these is a comment, on either side."""
