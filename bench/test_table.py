"""bench/table.py --write: the table goes between the marker lines of docs/results.md and nowhere else."""

from __future__ import annotations

from pathlib import Path

import pytest

from table import BEGIN_MARKER, END_MARKER, replace_between_markers

RESULTS = Path(__file__).resolve().parent.parent / "docs" / "results.md"


def test_replaces_only_the_lines_between_the_markers() -> None:
    document = f"# Results\n\nbefore\n{BEGIN_MARKER}\nold table\nold machine\n{END_MARKER}\nafter\n"
    assert replace_between_markers(document, "| new |\n|---|") == (
        f"# Results\n\nbefore\n{BEGIN_MARKER}\n| new |\n|---|\n{END_MARKER}\nafter\n"
    )


@pytest.mark.parametrize("document", ["no markers\n", f"{BEGIN_MARKER}\nonly the start\n",
                                      f"{END_MARKER}\nend first\n{BEGIN_MARKER}\n"])
def test_refuses_a_document_without_both_markers_in_order(document: str) -> None:
    with pytest.raises(ValueError, match="needs a line"):
        replace_between_markers(document, "table")


def test_results_page_holds_the_table_between_its_markers() -> None:
    lines = RESULTS.read_text(encoding="utf-8").split("\n")
    between = lines[lines.index(BEGIN_MARKER) + 1: lines.index(END_MARKER)]
    assert between[0].startswith("| game | C++ bulk perft |")
    assert any(line.startswith("Machine: ") for line in between)
