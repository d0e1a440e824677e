"""The vending-machine tower as a game object: what went in, came out, is stuck.

Drinks thrown in either come out into the tray or stick inside; a stuck drink can
be pushed out by a later drop, or fall out on its own at another moment. The
tower only keeps the books: which drinks came out is always chance, supplied by
an observation, a person or the simulated table.

>>> t = Tower()
>>> t, drop = t.drop(thrown=("red-tall_can", "blue-short_can"), out=("red-tall_can",))
>>> sorted(t.inside), drop.stuck
(['blue-short_can'], ('blue-short_can',))
>>> t, drop = t.drop(thrown=("mint-tall_can",), out=("blue-short_can", "mint-tall_can"))
>>> drop.freed, sorted(t.inside)
(('blue-short_can',), [])
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .engine import IllegalMove


@dataclass(frozen=True)
class Drop:
    """One drop's result: what went in, what came out, and which of those were
    stuck from before (``freed``); ``stuck`` is what is inside afterwards."""

    thrown: tuple[str, ...]
    out: tuple[str, ...]
    freed: tuple[str, ...]
    stuck: tuple[str, ...]

    def to_json(self) -> dict:
        return {"thrown": list(self.thrown), "out": list(self.out),
                "freed": list(self.freed), "stuck": list(self.stuck)}


@dataclass(frozen=True)
class Tower:
    inside: frozenset[str] = field(default_factory=frozenset)

    def drop(self, thrown: tuple[str, ...], out: tuple[str, ...]) -> tuple["Tower", Drop]:
        """Throw ``thrown`` in; ``out`` is what came out (of those or of the stuck)."""
        overlap = self.inside & set(thrown)
        if overlap:
            raise IllegalMove(f"{', '.join(sorted(overlap))} is inside the tower already and cannot be thrown")
        candidates = self.inside | set(thrown)
        _check_out(out, candidates, "thrown in or stuck inside")
        inside = frozenset(candidates - set(out))
        freed = tuple(sorted(set(out) & self.inside))
        return Tower(inside), Drop(tuple(thrown), tuple(sorted(out)), freed, tuple(sorted(inside)))

    def spill(self, out: tuple[str, ...]) -> "Tower":
        """Drinks that fell out with nothing thrown in."""
        if not out:
            raise IllegalMove("a spill needs at least one drink that fell out")
        _check_out(out, self.inside, "stuck inside the tower")
        return Tower(self.inside - set(out))


def _check_out(out: tuple[str, ...], candidates: frozenset[str] | set[str], where: str) -> None:
    if len(set(out)) != len(out):
        raise IllegalMove("the same drink is listed twice as coming out")
    unknown = sorted(set(out) - set(candidates))
    if unknown:
        raise IllegalMove(f"{', '.join(unknown)} cannot have come out: it was not {where}")
