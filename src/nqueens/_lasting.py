"""Imports whose objects last as long as the process, made with no collection.

Importing nqueens makes some ten thousand objects (functions, classes, the
typing module's) that are never garbage: every collection during the import
(fourteen of them) scanned the growing heap and freed nothing.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def no_collection() -> Iterator[None]:
    """The collector off for the block, and as it was after it.

    >>> import gc
    >>> with no_collection():
    ...     gc.isenabled()
    False
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
