"""Files written whole or not at all.

Output goes to a temporary file in the target's own folder, which is then
renamed over the name: a failure (a full disk, a kill) leaves no half file,
and a symbolic link planted at the name is replaced, never written through.
"""

from __future__ import annotations

import contextlib
import os
from typing import Callable, Union

Content = Union[str, bytes]


def write_atomically(path: str, content: Content | Callable[[str], None]) -> None:
    """Write content (text, bytes, or a function that writes a file at the path it is
    given) to path in one step; OSError names path when it fails."""
    import tempfile  # here: a count that writes nothing does not load it

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
    return False  # a loop of links: leads nowhere (opening it fails, and says so)


def check_out_dir(out_dir: str, option: str = "--out", create: bool = False) -> None:
    """Raise ValueError unless out_dir is a directory where a file can be made: one
    is made and removed (root passes every permission check, /proc too).  With
    create, a folder that does not exist yet is made, with its parents (as
    ``mkdir -p``), where the nearest one that exists is a directory."""
    import tempfile

    if create and not os.path.lexists(out_dir):
        parent = os.path.dirname(os.path.abspath(out_dir))
        while not os.path.lexists(parent):
            parent = os.path.dirname(parent)
        if not os.path.isdir(parent):
            raise ValueError(f"{option} {out_dir!r} cannot be made: {parent!r} is not a directory")
        if leads_into_proc(out_dir):
            raise ValueError(f"{option} {out_dir!r} is not writable (it leads into /proc)")
        try:
            os.makedirs(out_dir, exist_ok=True)
        except OSError as exc:
            raise ValueError(f"{option} {out_dir!r} cannot be made: {exc.strerror}") from None
    if not os.path.isdir(out_dir):
        raise ValueError(f"{option} {out_dir!r} is not a directory")
    if leads_into_proc(out_dir):
        raise ValueError(f"{option} {out_dir!r} is not writable (it leads into /proc)")
    try:
        handle, probe = tempfile.mkstemp(dir=out_dir, prefix=".nqueens-")
    except OSError:
        raise ValueError(f"{option} {out_dir!r} is not writable") from None
    os.close(handle)
    os.unlink(probe)


def check_out_file(path: str, option: str) -> None:
    """Raise ValueError unless path names a regular file, or nothing yet, in a folder
    where a file can be made (a FIFO or a device would be replaced, or block)."""
    if not path or path.endswith((os.sep, "/")):
        raise ValueError(f"{option} {path!r} names no file")
    if os.path.lexists(path) and not os.path.isfile(path):
        raise ValueError(f"{option} {path!r} is not a regular file")
    check_out_dir(os.path.dirname(os.path.abspath(path)), option)
