"""Output files written whole (patience_engine._files): a failure leaves the old file or none."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from patience_engine._files import write_whole


def failing_half_way(name: str) -> None:
    Path(name).write_text("half a page")
    raise OSError(errno.ENOSPC, "No space left on device", name)


def test_a_failed_write_leaves_no_file_and_names_the_path(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    with pytest.raises(OSError, match=r"^\[Errno 28\] No space left on device: '.*page\.html'$"):
        write_whole(str(page), failing_half_way)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_the_old_file_as_it_was(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text("old")
    with pytest.raises(OSError):
        write_whole(str(page), failing_half_way)
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"] and page.read_text() == "old"


def test_cairo_errors_are_worded_with_the_path(tmp_path: Path) -> None:
    def cairo(name: str) -> None:
        raise OSError("cairo returned CAIRO_STATUS_WRITE_ERROR: b'error while writing to output stream'", 11)

    with pytest.raises(OSError, match=r"^.*p\.png: cannot write the file \(cairo returned CAIRO_STATUS_WRITE_ERROR"):
        write_whole(str(tmp_path / "p.png"), cairo)
    assert list(tmp_path.iterdir()) == []


def test_a_link_is_kept_and_its_file_replaced_with_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "target.svg"
    target.write_text("old")
    os.chmod(target, 0o640)
    link = tmp_path / "link.svg"
    link.symlink_to(target)
    write_whole(str(link), lambda name: Path(name).write_text("new"))
    assert link.is_symlink() and target.read_text() == "new" and (target.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.svg", "target.svg"]


def test_a_fifo_is_written_as_it_is(tmp_path: Path) -> None:
    fifo = tmp_path / "out.svg"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_whole(str(fifo), lambda name: Path(name).write_text("through"))
        assert os.read(reader, 100) == b"through"
    finally:
        os.close(reader)
