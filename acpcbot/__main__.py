"""``python -m acpcbot``: the ``acpcbot`` command run by this interpreter, whatever the PATH
holds (``acpcbot connect`` starts ``acpcbot play`` so)."""

import sys

from acpcbot.cli import main

sys.exit(main())
