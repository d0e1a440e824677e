"""The tower's own books from a game's log: what each drop let out, tallied per drink.

Only what the log says: a drop is a chance move that settled a drop the game awaited (the game's
``chance`` was a ChanceDrop: these drinks went in, those were stuck inside) and its ``out`` says
which came out. So for each drink thrown we know whether it came out in the same drop (``first``:
first try) or stayed inside (``stuck``); a drink stuck from before that came out with a later drop
was ``freed``; one that fell out with nothing thrown (a ``spill``) ``spilled``. Drops an undo took
back are not counted (they were entered wrongly, or never happened). What the tower did before a
game began or after it ended is in no log, so it is not here.

A tally is plain JSON, so it is kept in the game's summary and tallies of many games add up:

    {"drops": 3, "stuck_drops": 1, "spills": 0,
     "drinks": {"red-tall_can": {"thrown": 2, "first": 1, "stuck": 1, "freed": 1, "spilled": 0}, ...}}

``stuck_drops`` counts the drops that left at least one of their drinks inside.
"""
from __future__ import annotations

from typing import Any, Iterable

from ..rules.engine import CHANCE, ChanceDrop

COUNTS = ("thrown", "first", "stuck", "freed", "spilled")


def empty() -> dict:
    return {"drops": 0, "stuck_drops": 0, "spills": 0, "drinks": {}}


def _drink(tally: dict, drink: str) -> dict:
    return tally["drinks"].setdefault(drink, dict.fromkeys(COUNTS, 0))


def _out(move) -> list[str] | None:
    out = move.args.get("out")
    return [d for d in out if isinstance(d, str)] if isinstance(out, (list, tuple)) else None


def tally(game: Any, history: Iterable[tuple[Any, Any, str]]) -> dict:
    """The drops among the moves in effect of a fold (``Folded.history``: state before, move, by)."""
    books = empty()
    for before, move, _by in history:
        if move.player != CHANCE:
            continue
        out = _out(move)
        if out is None:  # a card turned up, a start player drawn: not the tower
            continue
        spec = game.chance(before)
        if isinstance(spec, ChanceDrop) and move.kind == spec.move_kind:
            came = set(out)
            books["drops"] += 1
            stuck = False
            for drink in spec.thrown:
                counts = _drink(books, drink)
                counts["thrown"] += 1
                if drink in came:
                    counts["first"] += 1
                else:
                    counts["stuck"] += 1
                    stuck = True
            books["stuck_drops"] += stuck
            for drink in set(spec.inside) & came:
                _drink(books, drink)["freed"] += 1
        elif move.kind == "spill":
            books["spills"] += 1
            for drink in out:
                _drink(books, drink)["spilled"] += 1
    return books


def add(total: dict, more: dict) -> dict:
    """``total`` with the tally ``more`` added to it (in place; returned)."""
    for key in ("drops", "stuck_drops", "spills"):
        total[key] += int(more.get(key, 0))
    for drink, counts in (more.get("drinks") or {}).items():
        mine = _drink(total, drink)
        for key in COUNTS:
            mine[key] += int(counts.get(key, 0))
    return total


def rates(books: dict) -> dict:
    """A tally with what people ask of it: how many drinks were thrown, the share that came out on
    the first try and the share that stuck (None where nothing was thrown), per drink and overall."""
    drinks = {}
    for drink, counts in sorted(books["drinks"].items()):
        thrown = counts["thrown"]
        drinks[drink] = {**counts, "first_rate": counts["first"] / thrown if thrown else None,
                         "stuck_rate": counts["stuck"] / thrown if thrown else None}
    thrown = sum(c["thrown"] for c in books["drinks"].values())
    first = sum(c["first"] for c in books["drinks"].values())
    return {"drops": books["drops"], "stuck_drops": books["stuck_drops"], "spills": books["spills"],
            "thrown": thrown, "first": first, "stuck": thrown - first,
            "first_rate": first / thrown if thrown else None,
            "stuck_rate": (thrown - first) / thrown if thrown else None,
            "stuck_drop_rate": books["stuck_drops"] / books["drops"] if books["drops"] else None,
            "drinks": drinks}
