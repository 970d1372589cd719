"""Files written whole or not at all.

Output goes to a temporary file in the target's own folder, which is then
renamed over the name: a failure (a full disk, a kill) leaves no half file,
and a symbolic link planted at the name is replaced, never written through.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from typing import Callable, Union

Content = Union[str, bytes]


def write_atomically(path: str, content: Content | Callable[[str], None]) -> None:
    """Write content (text, bytes, or a function that writes a file at the path it is
    given) to path in one step; OSError names path when it fails."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, temporary = tempfile.mkstemp(
            prefix=".nqueens-", suffix=os.path.splitext(path)[1], dir=folder
        )
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, path) from None
    try:
        if callable(content):
            os.close(fd)
            content(temporary)
        else:
            data = content.encode("utf-8") if isinstance(content, str) else content
            with os.fdopen(fd, "wb") as out:
                out.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except OSError as exc:
        _remove(temporary)
        raise OSError(exc.errno, exc.strerror, path) from None
    except BaseException:
        _remove(temporary)
        raise


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def leads_into_proc(name: str) -> bool:
    """Whether a path is, or passes through a link to, /proc: /dev/stdout leads to a
    process's descriptor there, and whatever file that descriptor holds."""
    path = os.path.abspath(name)
    for _ in range(40):  # the kernel's own limit on links followed
        parts = path.split(os.sep)
        for i in range(2, len(parts) + 1):
            prefix = os.sep.join(parts[:i])
            if prefix == "/proc":
                return True
            if os.path.islink(prefix):
                target = os.path.join(os.path.dirname(prefix), os.readlink(prefix))
                path = os.path.normpath(os.path.join(target, *parts[i:]))
                break
        else:
            return False
    return True
