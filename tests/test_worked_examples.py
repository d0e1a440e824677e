"""docs/worked-examples.md against the tests: every test the table names exists, and every test
that says it checks a worked example (a docstring line starting ``Worked example:``, then the
rule book, 000 or 002) is in the table under that book.

The test files are read with ``ast`` (nothing is imported), so this stays fast.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "docs" / "worked-examples.md"
MARKER = re.compile(r"^Worked example:\s*(\d{3})\b")
BOOKS = {"000", "002"}


def table_rows() -> list[dict]:
    """The rows of the table: book, section, what it shows, test (the raw cell)."""
    rows = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) != 4 or cells[0] == "book" or set(cells[0]) <= {"-"}:
            continue
        rows.append(dict(zip(("book", "section", "shows", "test"), cells)))
    return rows


def named_tests(cell: str) -> list[str]:
    """The ``tests/file.py::test_name`` references of a test cell ([] for "none yet: ...")."""
    if cell.startswith("none yet"):
        return []
    return [ref.strip() for ref in cell.split(", ")]


def functions_of(path: Path) -> dict[str, str]:
    """The module-level test functions of a test file, with their docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name: ast.get_docstring(node) or "" for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def marked_tests() -> dict[str, set[str]]:
    """Every test carrying a ``Worked example:`` line: its reference -> the books it names."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        for name, doc in functions_of(path).items():
            books = {m.group(1) for line in doc.splitlines() if (m := MARKER.match(line.strip()))}
            if books or any(line.strip().startswith("Worked example:") for line in doc.splitlines()):
                found[f"tests/{path.name}::{name}"] = books
    return found


def test_the_table_has_rows_of_both_books_and_each_row_is_complete():
    rows = table_rows()
    assert {r["book"] for r in rows} == BOOKS, "rows of an unknown book, or a book without rows"
    for r in rows:
        assert r["section"] and r["shows"], f"an incomplete row: {r}"
        assert r["test"].startswith("none yet: ") or named_tests(r["test"]), \
            f"a row with neither a test nor 'none yet: why': {r}"


def test_every_test_the_table_names_exists():
    missing = []
    for r in table_rows():
        for ref in named_tests(r["test"]):
            file, _, name = ref.partition("::")
            path = ROOT / file
            if not (file.startswith("tests/test_") and path.is_file() and name in functions_of(path)):
                missing.append(ref)
    assert not missing, f"docs/worked-examples.md names tests that do not exist: {missing}"


def test_every_test_marked_as_a_worked_example_is_in_the_table_under_its_book():
    listed: dict[str, set[str]] = {}
    for r in table_rows():
        for ref in named_tests(r["test"]):
            listed.setdefault(ref, set()).add(r["book"])
    marked = marked_tests()
    assert marked, "no test carries a 'Worked example:' line"
    unlisted = sorted(ref for ref in marked if ref not in listed)
    assert not unlisted, f"tests marked 'Worked example:' but missing from docs/worked-examples.md: {unlisted}"
    wrong = {ref: sorted(books) for ref, books in marked.items() if not books or not books <= listed[ref]}
    assert not wrong, f"'Worked example:' lines naming no book (000 or 002) or another book than the table's: {wrong}"
