"""The dependency arrows of DESIGN.md, read from the code: every import of every module (ast,
the ones inside functions too) is checked, so an arrow the wrong way fails here before review.

    server -> table -> {rules, vision, sensors};  sim feeds vision and sensors, wired in by cli;
    rules imports nothing of the project but drinks (and itself)."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"

# (importer's part, imported part): never. A part is the first name under companion
# ("table", "server", "rules", ...; "drinks" and "observation" for the modules of those names).
FORBIDDEN = {
    ("table", "sim"): "the table never imports the simulation: cli (or a test) injects it",
    ("vision", "sim"): "vision never imports the simulation: cli wires the simulated camera in",
    ("vision", "rules"): "vision knows drinks and boards, not rules",
    ("sensors", "rules"): "the sensors report passes, not rules",
    ("sensors", "sim"): "the sensors never import the simulation",
    ("server", "rules"): "the server is a thin layer over the table: the table exposes what it needs",
    ("server", "sim"): "the server never imports the simulation: cli wires it in",
    ("server", "vision"): "the server reaches the camera through the table",
    ("server", "sensors"): "the server reaches the sensor board through the table",
    ("table", "server"): "arrows point from the server to the table",
}
RULES_MAY_IMPORT = {"rules", "drinks"}
# Modules shared by vision, sim, table and server (what a board is and what stands on it):
# they import none of those parts, or an arrow would run both ways.
SHARED = {"board_layout", "board_pieces", "crate_fields", "landing"}
SHARED_MAY_IMPORT = {"drinks", "board_layout", "board_pieces", "crate_fields", "landing"}


def part(module: str) -> str:
    names = module.split(".")
    return names[1] if len(names) > 1 else ""


def module_name(path: Path) -> tuple[str, str]:
    """The module's dotted name and the package its relative imports start from."""
    names = list(path.relative_to(ROOT).with_suffix("").parts)
    if names[-1] == "__init__":
        names = names[:-1]
        return ".".join(names), ".".join(names)
    return ".".join(names), ".".join(names[:-1])


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in the file, wherever it stands."""
    _, package = module_name(path)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
                # `from . import x` names modules: each is imported
                targets = [target] if node.module else [f"{target}.{a.name}" for a in node.names]
            else:
                targets = [node.module or ""]
            found += [(node.lineno, t) for t in targets]
    return [(line, t) for line, t in found if t == "companion" or t.startswith("companion.")]


MODULES = sorted(PACKAGE.rglob("*.py"))


def wrong_arrows(path: Path) -> list[str]:
    name, _ = module_name(path)
    mine = part(name)
    wrong = []
    for line, target in imports(path):
        theirs = part(target)
        if not theirs or theirs == mine:
            continue
        why = FORBIDDEN.get((mine, theirs))
        if mine == "rules" and theirs not in RULES_MAY_IMPORT:
            why = "rules imports nothing of the project but drinks"
        if mine in SHARED and theirs not in SHARED_MAY_IMPORT:
            why = "a module shared by vision, sim and table imports none of them"
        if why:
            wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}: {why}")
    return wrong


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(PACKAGE)) for p in MODULES])
def test_every_import_points_the_right_way(path):
    assert wrong_arrows(path) == []


def test_the_checker_sees_a_wrong_arrow(tmp_path, monkeypatch):
    """A module that imports the simulation from the table, absolutely, relatively, inside a function."""
    table = tmp_path / "companion" / "table"
    table.mkdir(parents=True)
    bad = table / "bad.py"
    bad.write_text("from ..sim.players import choose\n"
                   "def f():\n    import companion.sim.tower\n    from .. import rules\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    found = wrong_arrows(bad)
    assert len(found) == 2 and all("simulation" in w for w in found)
    rules = tmp_path / "companion" / "rules"
    rules.mkdir()
    (rules / "bad.py").write_text("from ..table import session\nfrom ..drinks import Colour\nfrom . import engine\n")
    assert [w.split(" imports ")[1].split(":")[0] for w in wrong_arrows(rules / "bad.py")] == ["companion.table"]
