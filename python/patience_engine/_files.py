"""Output files written whole: a page, a picture or a plot appears complete or not at all."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from typing import Callable


def write_whole(path: str, write: Callable[[str], object]) -> None:
    """Make the file at ``path`` by ``write(name)`` under a temporary name beside it, then rename it into place.

    A failure (a full disk) or a kill leaves the old file, or none, never a half-written one; the
    temporary file is removed. A symbolic link's file is replaced, the link kept, and keeps its mode; a
    path that is no regular file (a FIFO, a terminal) is written as it is. Raises ``OSError`` naming
    ``path`` when the file cannot be written, else what ``write`` raises.
    """
    real = os.path.realpath(path)
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        write(path)
        return
    directory, name = os.path.split(real)
    temporary = os.path.join(directory, f".{name}.{secrets.token_hex(8)}.new")
    try:
        write(temporary)
        if mode is not None:
            os.chmod(temporary, stat.S_IMODE(mode))
        os.replace(temporary, real)
    except OSError as error:
        _remove(temporary)
        if isinstance(error.errno, int):
            raise OSError(error.errno, error.strerror, path) from None
        # CairoSVG's OSError carries cairo's message where the errno goes.
        raise OSError(f"{path}: cannot write the file ({error.args[0]})") from None
    except BaseException:
        _remove(temporary)
        raise


def _remove(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
