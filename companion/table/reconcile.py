"""What came out of the tower, from a reading of the tray and what the table knows.

A camera names each drink it sees, some of them unsure. The table knows more than the camera:
each of the 36 drinks exists once, so only a drink that was thrown in or is stuck inside (the
*candidates*) can come out, and the exit beam counted how many did. :func:`reconcile` weighs a
reading against that and gives an :class:`Account`: the drinks that most likely came out, and
whether that answer is settled or a person must be asked (with it preselected).

The rules, in the order they apply:

1. A sure reading of a candidate is taken as read.
2. A doubtful reading (unsure, less sure than ``SURE``, of a drink that cannot have come out,
   or a second reading of a drink already taken) is compared with the candidates still free
   that share its colour or its shape:

   - it names one of them and no other shares its colour or shape: it is that drink (settled);
   - it names a drink that cannot have come out and exactly one free candidate shares its
     colour or shape: it is that one (settled);
   - otherwise a person is asked; preselected is the reading itself when it is a free
     candidate, else the free candidate most like it (colour before shape), else the only
     free candidate left, else nothing.
3. The count: when the exit beam counted drinks for this drop and the answer holds another
   number, a person is asked. Preselected: the answer plus every free candidate when exactly
   as many are free as are missing (each drink exists once: those must be the ones), or the
   answer without its least sure doubtful drinks when it holds too many.

Nothing here decides for a person: the session applies a settled account of a machine's
reading, and asks about everything else. Pure: no I/O, no clock, no game state beyond the
candidates and the count it is given.

>>> thrown = ["red-tall_can", "white-square_bottle", "blue-stubby_can"]
>>> a = reconcile([Reading("red-tall_can", 0.97), Reading("mint-square_bottle", 0.55, unsure=True)], thrown, 2)
>>> a.out, a.settled
(('red-tall_can', 'white-square_bottle'), True)
>>> a.decisions[0]["as"], a.decisions[0]["why"]
('white-square_bottle', 'mint-square_bottle cannot have come out (it was not thrown in and is not stuck inside); white-square_bottle is the only drink left in the tower of its colour or shape')
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from ..drinks import DRINK_IDS, SHAPES

SURE = 0.8  # a reading less sure than this is doubtful (the session's CONFIRM_BELOW)


@dataclass(frozen=True)
class Reading:
    """One drink as a source read it."""

    id: str
    confidence: float = 1.0
    unsure: bool = False

    @property
    def colour(self) -> str:
        return self.id.split("-", 1)[0]

    @property
    def shape(self) -> str:
        return self.id.split("-", 1)[1]

    def doubtful(self) -> bool:
        return self.unsure or self.confidence < SURE


@dataclass(frozen=True)
class Account:
    """The reconciled answer: ``out`` (sorted) the drinks that most likely came out; ``settled``
    whether no person need be asked; ``decisions`` what was made of each doubtful reading and of
    the count (``{"rule": ..., "read": id or None, "as": id or None, "why": text}``; ``rule``:
    ``settled`` (as read), ``replaced``, ``asked`` (the likely drink, or None) or ``count`` (``read``
    None: a drink the count added; ``as`` None: a reading it left out)); ``doubts`` why a person
    is asked."""

    out: tuple[str, ...]
    settled: bool
    decisions: tuple[dict, ...] = ()
    doubts: tuple[str, ...] = ()
    counted_out: int | None = None
    read: tuple[str, ...] = field(default=())

    @property
    def changed(self) -> bool:
        """Whether the answer differs from the drinks as read."""
        return tuple(sorted(set(self.read))) != self.out

    def to_json(self) -> dict:
        return {"out": list(self.out), "settled": self.settled, "decisions": [dict(d) for d in self.decisions],
                "doubts": list(self.doubts), "counted_out": self.counted_out}


def readings_of(appeared: Sequence[str], confidence: float, detail: Mapping[str, Any] | None) -> list[Reading]:
    """The drinks an observation says appeared, one reading each, with the confidence and the
    unsure mark of its detection where the detail lists detections (a camera's): those marked
    ``new`` (read since the tray was last still: two readings of one drink included), else
    those of an appeared drink. A drink without a detection has the observation's confidence.
    The detail may come from anyone the host lets post one: what is not a well-formed detection
    of a known drink is passed over."""
    detail = detail if isinstance(detail, Mapping) else {}
    listed = detail.get("unsure")
    unsure_ids = {d for d in listed if isinstance(d, str)} if isinstance(listed, list) else set()
    dets = [d for d in detail.get("detections", ()) if _well_formed(d)] \
        if isinstance(detail.get("detections"), list) else []
    marked = any("new" in d for d in dets)
    chosen = [d for d in dets if (d.get("new") is True if marked else d["id"] in appeared)]
    readings = [Reading(d["id"], float(d["confidence"]), bool(d.get("unsure"))) for d in chosen]
    for drink in appeared:
        if not any(r.id == drink for r in readings):
            readings.append(Reading(drink, float(confidence), drink in unsure_ids))
    return readings


def _well_formed(d: Any) -> bool:
    if not isinstance(d, Mapping) or d.get("id") not in DRINK_IDS:
        return False
    c = d.get("confidence")
    return isinstance(c, (int, float)) and not isinstance(c, bool) and math.isfinite(c) and 0.0 <= c <= 1.0


def reconcile(readings: Iterable[Reading], candidates: Iterable[str] | None,
              counted_out: int | None = None) -> Account:
    """Weigh ``readings`` against the ``candidates`` (the drinks that can come out: thrown in
    and stuck inside; None when not known, then nothing is settled by them) and the exit beam's
    count for this drop (None when no beam counted it). See the module's rules."""
    readings = list(readings)
    pool = None if candidates is None else set(candidates)
    taken: list[str] = []
    doubts: list[str] = []
    decisions: list[dict] = []
    from_doubt: dict[str, float] = {}   # drinks of the answer that a doubtful reading gave: its confidence
    doubtful: list[tuple[Reading, str]] = []

    for r in sorted(readings, key=lambda r: -r.confidence):           # rule 1
        if r.doubtful():
            doubtful.append((r, "unsure" if r.unsure else f"read at {r.confidence:.0%} only"))
        elif r.id in taken:
            doubtful.append((r, "read twice"))
        elif pool is not None and r.id not in pool:
            doubtful.append((r, "cannot have come out"))
        else:
            taken.append(r.id)

    for r, why in doubtful:                                              # rule 2
        if pool is None:
            if r.id not in taken:
                taken.append(r.id)
                from_doubt[r.id] = r.confidence
            doubts.append(f"{r.id} is {why}")
            continue
        free = sorted(pool - set(taken))
        alike = [c for c in free if _colour(c) == r.colour or _shape(c) == r.shape]
        gone = "" if r.id in pool else f"{r.id} cannot have come out (it was not thrown in and is not stuck inside); "
        if r.id in free and alike == [r.id]:
            decisions.append({"rule": "settled", "read": r.id, "as": r.id,
                              "why": f"{r.id} ({why}) is the only drink left in the tower of its colour or shape"})
            settled_as = r.id
        elif r.id not in free and len(alike) == 1:
            settled_as = alike[0]
            decisions.append({"rule": "replaced", "read": r.id, "as": settled_as, "why": (gone or f"{r.id} is {why}; ") +
                              f"{settled_as} is the only drink left in the tower of its colour or shape"})
        else:
            likely = r.id if r.id in free else _likeliest(r, alike) or (free[0] if len(free) == 1 else None)
            decisions.append({"rule": "asked", "read": r.id, "as": likely,
                              "why": _doubt_words(r, why, alike, free, likely)})
            doubts.append(decisions[-1]["why"])
            if likely is None:
                continue
            settled_as = likely
        taken.append(settled_as)
        from_doubt[settled_as] = r.confidence

    if counted_out is not None and len(taken) != counted_out:           # rule 3
        n = len(taken)
        doubts.append(f"the exit beam counted {counted_out} drink(s) coming out, the reading has {n}")
        free = sorted(pool - set(taken)) if pool is not None else []
        if n < counted_out and pool is not None and len(free) == counted_out - n:
            left = f"{free[0]} was the only drink" if len(free) == 1 else f"{', '.join(free)} were the only drinks"
            for c in free:
                taken.append(c)
                decisions.append({"rule": "count", "read": None, "as": c,
                                  "why": f"the exit beam counted {counted_out}; {left} left in the tower"})
        elif n > counted_out:
            for c in sorted(from_doubt, key=lambda c: from_doubt[c])[:n - counted_out]:
                taken.remove(c)
                decisions.append({"rule": "count", "read": c, "as": None,
                                  "why": f"the exit beam counted {counted_out}: the least sure reading ({c}) is left out"})

    return Account(out=tuple(sorted(set(taken))), settled=not doubts, decisions=tuple(decisions),
                   doubts=tuple(doubts), counted_out=counted_out, read=tuple(r.id for r in readings))


def _colour(drink: str) -> str:
    return drink.split("-", 1)[0]


def _shape(drink: str) -> str:
    return drink.split("-", 1)[1]


def _likeliest(r: Reading, alike: list[str]) -> str | None:
    """Of the free candidates sharing the reading's colour or shape, the one most like it: its
    colour first (a colour is read more surely than a shape), then the nearest in height; None
    when two are equally like it."""
    if not alike:
        return None
    shapes = [s.value for s in SHAPES]

    def likeness(c: str) -> tuple[int, int]:
        return (int(_colour(c) == r.colour), -abs(shapes.index(_shape(c)) - shapes.index(r.shape)))

    ranked = sorted(alike, key=likeness, reverse=True)
    if len(ranked) > 1 and likeness(ranked[0]) == likeness(ranked[1]):
        return None
    return ranked[0]


def _doubt_words(r: Reading, why: str, alike: list[str], free: list[str], likely: str | None) -> str:
    if r.id in free:
        others = [c for c in alike if c != r.id]
        return f"{r.id} is {why}, and {', '.join(others)} {'is' if len(others) == 1 else 'are'} in the tower too"
    head = (f"{r.id} cannot have come out (it was not thrown in and is not stuck inside)" if why == "cannot have come out"
            else f"{r.id} is {why}" + (" and is taken already" if why == "read twice" else " and is not in the tower"))
    if likely is None:
        return head + ("; no drink left in the tower is like it" if not alike else
                       f"; {', '.join(alike)} are equally like it")
    return head + f"; most likely {likely}"
