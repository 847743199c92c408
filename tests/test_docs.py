"""The documentation stays true: examples run, cross-references resolve, rules.md agrees with the engine.

- The README's examples, the examples of docs/*.md and every docstring example
  run as doctests; the README's tour shows every public method and property of
  the published games' position and move classes.
- Every reference to a section of a page, written as the page's path and the
  section's heading in double quotes (docs/rules.md "Text formats"), in the
  code, docstrings, help text and docs of the repository names a page that
  exists and a heading that page has. A bare page name (rules.md "Perft")
  means the page in docs/.
- Every relative link of README.md and docs/*.md resolves, anchors included.
- docs/rules.md has exactly the contract's sections, and its check values are
  the engine's.
"""

from __future__ import annotations

import doctest
import importlib
import os
import pkgutil
import re
from pathlib import Path
from typing import Dict, Iterator, List, Set, Tuple

import pytest

import patience_engine
from conftest import game_data
from patience_engine.games import REGISTRY
from patience_engine.registry import ENTRIES

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
MODULES = sorted(
    info.name for info in pkgutil.walk_packages(patience_engine.__path__, "patience_engine.")
    if info.name != "patience_engine._core"
) + ["patience_engine"]

# Directories that hold no source of the project: tools, builds and generated pages.
SKIPPED_DIRS = {".git", ".venv", "venv", "build", "dist", "_build", "_api", "__pycache__", ".pytest_cache",
                ".hypothesis", ".benchmarks", "test-artifacts", "node_modules"}
SOURCE_SUFFIXES = {".py", ".pyi", ".hpp", ".cpp", ".h", ".md", ".txt", ".toml", ".cfg", ".yml", ".yaml", ""}
# A page, optionally in ``literal`` marks, then a section heading in double quotes; the heading may
# be wrapped onto the next line of a comment or docstring.
REFERENCE = re.compile(r"(?<![\w/.-])`{0,2}((?:docs/)?[\w.-]+\.md)`{0,2},? \"([^\"]{1,80})\"")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"(?<!\!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
RULES_SECTIONS = ["Cards", "Numbered deals", "Text formats", "Move notation", "Perft", "Check values"]
"""docs/rules.md's sections besides one per game (titled as the game), which follow "Numbered deals"."""
NAME_OF_TITLE = {info.title: info.name for info in ENTRIES}
"""Every game's name by its title, the games of builds other than this one's too: the docs describe them all."""


def source_files() -> Iterator[Path]:
    """Every text file of the repository's own source, docs and help text."""
    for directory, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.endswith(".egg-info")
                         and not d.startswith(".venv-"))  # .ci/run's other venvs (.venv-sanitize)
        for name in sorted(files):
            path = Path(directory, name)
            if path.suffix in SOURCE_SUFFIXES:
                yield path


def prose_lines(text: str) -> Iterator[str]:
    """The lines of a Markdown text outside fenced code blocks."""
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            yield line


def headings(page: Path) -> Set[str]:
    """The section headings of a Markdown page (any level), as written."""
    return {m.group(1) for line in prose_lines(page.read_text(encoding="utf-8")) if (m := HEADING.match(line))}


def slug(heading: str) -> str:
    """The anchor GitHub and MyST give a heading: lower case, punctuation dropped, spaces as '-'."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def page_of(reference: str) -> Path:
    """The file a reference names: a path from the repository's root, or a bare name in docs/."""
    return ROOT / reference if "/" in reference or reference == "README.md" else DOCS / reference


def section_references(text: str) -> Iterator[Tuple[int, str, str]]:
    """(line, page, section) of every section reference in ``text``; a heading wrapped onto the
    next line of a comment (``//``, ``#``, ``*``) is joined back."""
    for match in REFERENCE.finditer(text):
        section = re.sub(r"\s*\n\s*(?://+|#+|\*+)?\s*", " ", match.group(2)).strip()
        yield text.count("\n", 0, match.start()) + 1, match.group(1), section


def broken_references(text: str) -> List[str]:
    """Why each section reference in ``text`` does not resolve ("line N: ..."), in order."""
    problems = []
    for line, reference, section in section_references(text):
        page = page_of(reference)
        if not page.is_file():
            problems.append(f"line {line}: {reference} does not exist")
        elif section not in headings(page):
            problems.append(f"line {line}: {reference} has no section {section!r}")
    return problems


def broken_links(page: Path) -> List[str]:
    """Why each relative link of a Markdown page does not resolve, anchors included."""
    problems = []
    prose = re.sub(r"`[^`]*`", "", "\n".join(prose_lines(page.read_text(encoding="utf-8"))))
    for match in LINK.finditer(prose):  # a link's text may be wrapped over lines
        target = match.group(1) or match.group(2)
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue  # http:, https:, mailto:
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists():
            problems.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in {slug(h) for h in headings(resolved)}:
            problems.append(f"{target}: no section with anchor {anchor!r}")
    return problems


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, report=True)
    assert result.failed == 0


def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted >= 5, "the README shows its examples as doctests"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_page_examples(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_readme_tour_shows_every_public_method_and_property() -> None:
    examples = doctest.DocTestParser().get_examples(README.read_text(encoding="utf-8"))
    code = "\n".join(example.source for example in examples)
    missing: Dict[str, List[str]] = {}
    # An optional game is left out: the README speaks to users, who never see it (docs/adding-a-game.md "The count").
    for info in REGISTRY.values():
        if info.optional:
            continue
        for cls in (info.cpp, info.cpp.Move):
            names = [n for n in dir(cls) if not n.startswith("_") and not re.search(rf"\b{n}\b", code)]
            if names:
                missing[cls.__name__] = names
    assert not missing, f"not shown in a README example: {missing}"


def test_section_references_resolve() -> None:
    problems = []
    count = 0
    for path in source_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        count += sum(1 for _ in section_references(text))
        problems += [f"{path.relative_to(ROOT)}, {problem}" for problem in broken_references(text)]
    assert not problems, "section references that do not resolve:\n" + "\n".join(problems)
    assert count >= 20, f"found only {count} section references: the pattern no longer matches them"


def test_a_broken_reference_is_reported() -> None:
    def ref(page: str, section: str) -> str:  # built here so the scan of this file does not see them
        return f'{page} "{section}"'

    text = (f"see {ref('docs/rules.md', 'Text formats')} and {ref('``docs/rules.md``', 'Move')[:-1]}\n"
            f"    // notation\",\nbut {ref('docs/rules.md', 'Text format')}, {ref('rules.md', 'Zobrist keys')} "
            f"and {ref('docs/nowhere.md', 'Cards')}")
    assert [section for _, _, section in section_references(text)][:2] == ["Text formats", "Move notation"]
    assert broken_references(text) == [
        "line 3: docs/rules.md has no section 'Text format'",
        "line 3: rules.md has no section 'Zobrist keys'",
        "line 3: docs/nowhere.md does not exist",
    ]


@pytest.mark.parametrize("page", [README] + PAGES, ids=lambda page: page.name)
def test_relative_links_resolve(page: Path) -> None:
    assert broken_links(page) == []


def test_a_broken_link_is_reported(tmp_path: Path) -> None:
    (tmp_path / "here.md").write_text("# Here\n\n## A section\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("[ok](here.md#a-section) [web](https://example.org/x) `[code](nowhere.md)`\n"
                    "[gone](nowhere.md) [bad\nanchor](here.md#no-such)\n", encoding="utf-8")
    assert broken_links(page) == ["nowhere.md: no such file", "here.md#no-such: no section with anchor 'no-such'"]


def test_rules_page_has_the_contracts_sections() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    sections = [m.group(1) for line in prose_lines(text) if (m := re.match(r"^## (.+)$", line))]
    games = [section for section in sections if section not in RULES_SECTIONS]
    assert [section for section in sections if section in RULES_SECTIONS] == RULES_SECTIONS
    assert sections[2 : 2 + len(games)] == games and len(set(games)) == len(games)
    assert {info.title for info in REGISTRY.values()} <= set(games) <= set(NAME_OF_TITLE)


def test_rules_page_check_values_are_the_engines() -> None:
    """Each game's deal text and perft counts on the page are the engine's and its test data's (DEAL_TEXTS,
    RULES_PERFT); every game of this build has both."""
    text = (DOCS / "rules.md").read_text(encoding="utf-8").split("## Check values", 1)[1]
    title = "|".join(map(re.escape, NAME_OF_TITLE))
    deals = re.findall(rf"^({title}), deal (\d+):\n\n```\n(.*?)\n```", text, re.M | re.S)
    rows = re.findall(rf"^\| ({title}) \| (.*) \|$", text, re.M)
    for found in (deals, rows):
        titles = [row[0] for row in found]
        assert {info.title for info in REGISTRY.values()} <= set(titles) and len(set(titles)) == len(titles)
    for title, deal, deal_text in deals:
        game = NAME_OF_TITLE[title]
        if game in REGISTRY:
            assert REGISTRY[game].cpp.deal(int(deal)).to_text() == deal_text
            assert game_data(game).DEAL_TEXTS[int(deal)] == deal_text
    for title, cells in rows:
        game = NAME_OF_TITLE[title]
        if game not in REGISTRY:
            continue
        for deal, cell in enumerate(cells.split(" | "), 1):
            counts = [int(value) for value in cell.split(", ")]
            position = REGISTRY[game].cpp.deal(deal)
            assert [patience_engine.perft(position, d) for d in range(1, len(counts) + 1)] == counts, (title, deal)
            assert game_data(game).RULES_PERFT[deal] == counts, (title, deal)
