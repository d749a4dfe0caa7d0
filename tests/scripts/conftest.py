"""The scripts' own modules are imported as the scripts import them: ``python scripts/NAME.py``
puts ``scripts/`` on the import path."""

from __future__ import annotations

import sys

from tests.conftest import REPO

if str(REPO / "scripts") not in sys.path:
    sys.path.append(str(REPO / "scripts"))
