"""The hand evaluation and equity engine (numba), and the precomputed preflop tables.

Importing this package is free: numba is imported by the modules that compile
(:mod:`.evaluator`, :mod:`.enumeration`, :mod:`.montecarlo`, :mod:`.strength`,
:mod:`.equity`, :mod:`.preflop`), and nothing compiles at import time — each kernel is
compiled on its first call and cached on disk (``NUMBA_CACHE_DIR`` chooses where).
:mod:`.combos`, :mod:`.ranges` and :mod:`.tables` are plain numpy.

Caching caveat: numba freezes global arrays (the evaluator's tables) into each cached
kernel and re-validates a cache entry only against its own source file. After editing
:mod:`.evaluator`'s tables, delete the cache (``.numba-cache`` under ``./dev.sh test``) so
kernels in the other modules are rebuilt too.
"""
