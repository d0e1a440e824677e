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

Besides drinks, an add-on throws other things (``ITEM_KINDS``): a detergent bottle that sticks
stays inside until another detergent bottle pushes it out (rule book 002, Mr. Sudsy's laundromat),
so a drop of drinks never frees it and it never falls out on its own.

>>> t, _ = Tower().drop(thrown=("detergent-1",), out=())
>>> t.freeable_by(("red-tall_can",)), t.freeable_by(("detergent-2",)), t.loose
((), ('detergent-1',), ())
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..drinks import DETERGENT, DRINK, item_kind
from .engine import IllegalMove


@dataclass(frozen=True)
class ItemKind:
    """What the tower does with one kind of item once it is stuck inside: which kinds thrown in can
    push it out (``freed_by``; None: any drop may shake it loose) and whether it may fall out on
    its own between throws (``spills``)."""

    name: str
    freed_by: frozenset[str] | None = None
    spills: bool = True


ITEM_KINDS = {
    DRINK: ItemKind(DRINK),
    # 002 Mr. Sudsy (WASCHMITTEL KAUFEN): a stuck bottle stays until another bottle pushes it out.
    DETERGENT: ItemKind(DETERGENT, freed_by=frozenset({DETERGENT}), spills=False),
}


def kind_of(item_id: str) -> ItemKind:
    """The kind of an item id; IllegalMove (saying which ids there are) for anything else."""
    try:
        return ITEM_KINDS[item_kind(item_id)]
    except ValueError:
        raise IllegalMove(f"{item_id!r} cannot go through the tower: name a drink or a detergent bottle") from None


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

    def freeable_by(self, thrown: tuple[str, ...]) -> tuple[str, ...]:
        """The items stuck inside that a drop of ``thrown`` may push out (sorted)."""
        kinds = {kind_of(x).name for x in thrown}
        return tuple(sorted(x for x in self.inside
                            if kind_of(x).freed_by is None or kind_of(x).freed_by & kinds))

    @property
    def loose(self) -> tuple[str, ...]:
        """The items stuck inside that may fall out on their own between throws (sorted)."""
        return tuple(sorted(x for x in self.inside if kind_of(x).spills))

    def drop(self, thrown: tuple[str, ...], out: tuple[str, ...]) -> tuple["Tower", Drop]:
        """Throw ``thrown`` in; ``out`` is what came out (of those or of the stuck)."""
        overlap = self.inside & set(thrown)
        if overlap:
            raise IllegalMove(f"{', '.join(sorted(overlap))} is inside the tower already and cannot be thrown")
        for x in thrown:
            kind_of(x)
        _check_out(out, self.inside | set(thrown), "thrown in or stuck inside")
        held = sorted((set(out) & self.inside) - set(self.freeable_by(thrown)))
        if held:
            raise IllegalMove(f"{', '.join(held)} cannot have come out: a stuck detergent bottle is pushed out "
                              f"only by another detergent bottle thrown in")
        candidates = self.inside | set(thrown)
        inside = frozenset(candidates - set(out))
        freed = tuple(sorted(set(out) & self.inside))
        return Tower(inside), Drop(tuple(thrown), tuple(sorted(out)), freed, tuple(sorted(inside)))

    def spill(self, out: tuple[str, ...]) -> "Tower":
        """Drinks that fell out with nothing thrown in (only ``loose`` items can)."""
        if not out:
            raise IllegalMove("a spill needs at least one drink that fell out")
        _check_out(out, self.inside, "stuck inside the tower")
        held = sorted(set(out) - set(self.loose))
        if held:
            raise IllegalMove(f"{', '.join(held)} cannot fall out on its own: a stuck detergent bottle comes out "
                              f"only when another detergent bottle pushes it")
        return Tower(self.inside - set(out))


def _check_out(out: tuple[str, ...], candidates: frozenset[str] | set[str], where: str) -> None:
    if len(set(out)) != len(out):
        raise IllegalMove("the same drink is listed twice as coming out")
    unknown = sorted(set(out) - set(candidates))
    if unknown:
        raise IllegalMove(f"{', '.join(unknown)} cannot have come out: it was not {where}")
