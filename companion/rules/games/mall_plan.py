"""The shopping mall's plan as data: an APPROXIMATE plan of the TOKYO JUTAKU cards laid out as a
mall (rule book 002, the shopping-mall game, VORBEREITUNG and SPIELABLAUF).

Our copy of the rule book lacks the plan's pictures (the grid of cards, the blue points where a
shopper stands, the lines between them, the vending machine's two points, the double aisles of
the exit). This plan agrees with every word of the text and guesses the rest; a table with the
real plan writes it as data (``plan_data``'s form, read by ``plan_from_data``), adds it to ``PLANS`` under
a name of its own and to the ``plan`` option's values, and picks it with that option.

A plan is:

- **cards** (``Card``): an id, a row (0 is the top) and a centre ``x2`` in half card widths (a
  card spans ``x2 - 1`` to ``x2 + 1``), and the goods laid on it at the start (good ids);
- **points** (``Point``): an id (the aisle's letter from the top, a to d, and the place from the
  left: ``d5``), the aisle it stands in (``aisle`` k lies below row k) and ``x2``;
- **lines** between points, each one step;
- **faces**: the cards a shopper standing on a point may take from (the cards of the rows on both
  sides of the aisle whose edge the point touches, corners included);
- **exits**: the points at the foot of the double aisles in the middle, where a shopper enters
  and leaves the mall (one step each way to ``OUTSIDE``);
- **vending**: the two points joined to the vending machine;
- the **bag**: crabs and tunas drawn at random.

The approximate plan (docs/rules-notes.md, the shopping-mall game): the top row has 7 cards (two
tunas on the two left cards, one washing machine, the dryer and a washing machine on the middle
three, with 5 salmon on each of the two beside the middle, two "4" crabs on the two right cards);
the second row 6 cards with 5 drinks each (the 30 drinks that are not black); below, two rows of
9 cards: the middle column holds the detergent (upper) and the magazines (bottom middle), the 16
outer cards one clothing item each. The double aisles run up on either side of the middle column.

>>> plan = PLANS["approximate"]
>>> len(plan.cards), len([c for c in plan.cards if c.row == 1])
(31, 6)
>>> sorted(plan.exits), plan.reach(OUTSIDE, 1) == set(plan.exits)
(['d5', 'd7'], True)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

AISLES = "abcd"        # the aisles from the top: a point is named by its aisle and its place from the left
OUTSIDE = "outside"   # before the shopper enters and after they leave: one step from each exit
DRINK_CARDS = 6       # the second row from the top: 5 drinks each
DRINKS_PER_CARD = 5

# The market's price piles (VORBEREITUNG 3, 7-10): a colour card per drink colour, a stack per kind
# of clothing or machine. Each falls by 100 when someone leaves paid from it.
STACKS = {"machines": ("washer", "dryer"), "linens": ("sheet", "pillowcase"),
          "outer": ("shirt", "pants"), "under": ("bra", "underpants", "socks")}
STACK_PRICES = {"machines": 500, "linens": 400, "outer": 300, "under": 200}
COLOUR_PRICES = {"black": 200, "white": 300, "mint": 300, "blue": 300, "red": 300, "purple": 300}
CLOTHING = ("sheet", "pillowcase", "shirt", "pants", "bra", "underpants", "socks")  # detergent doubles these
STACK_OF = {kind: stack for stack, kinds in STACKS.items() for kind in kinds}

# Chosen where the text is silent (docs/rules-notes.md): the 16 clothing items of the bottom
# outer cards, how many magazines and detergents, the crabs and tunas in the bag (values in
# hundreds of yen: a "6" crab pays 600).
CLOTHES_LAID = ("sheet", "pillowcase", "shirt", "pants", "bra", "underpants", "socks", "shirt",
                "pants", "sheet", "pillowcase", "shirt", "pants", "bra", "underpants", "socks")
MAGAZINES = 4
DETERGENTS = 4
SALMON_PER_CARD = 5
CRABS_SHOWN = (4, 4)          # the two "4" crabs on the top right cards
CRABS_IN_BAG = (2, 3, 4, 5, 6, 6, 7, 8)
TUNAS_SHOWN = (15, 15)        # the two "15" tunas on the top left cards
TUNAS_IN_BAG = (5, 8, 10, 12, 15, 20)


@dataclass(frozen=True)
class Card:
    id: str
    row: int
    x2: int
    goods: tuple[str, ...] = ()   # good ids laid at the start (the drink cards are filled at setup)


@dataclass(frozen=True)
class Point:
    id: str
    aisle: int
    x2: int


@dataclass(frozen=True)
class Plan:
    name: str
    approximate: bool
    cards: tuple[Card, ...]
    points: tuple[Point, ...]
    lines: tuple[tuple[str, str], ...]
    faces: Mapping[str, tuple[str, ...]]
    exits: tuple[str, ...]
    vending: tuple[str, ...]
    bag: tuple[str, ...]
    values: Mapping[str, int]                 # crabs and tunas: what each pays, in yen
    neighbours: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def point_at(self, aisle: int, x2: int) -> str:
        return next(p.id for p in self.points if (p.aisle, p.x2) == (aisle, x2))

    def card(self, card_id: str) -> Card:
        return next(c for c in self.cards if c.id == card_id)

    @property
    def drink_cards(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards if c.row == 1)

    def reach(self, start: str, most: int = 3) -> set[str]:
        """The points a shopper may end on after 1 to ``most`` steps from ``start``: a turn back
        is allowed, ending where one began is not (so every point within ``most`` steps)."""
        seen, frontier = {start}, {start}
        for _ in range(most):
            frontier = {q for p in frontier for q in self.neighbours.get(p, ())} - seen
            seen |= frontier
        return seen - {start, OUTSIDE}

    def steps_out(self, start: str) -> int:
        """How many steps from ``start`` to outside the mall (through an exit)."""
        seen, frontier, k = {start}, {start}, 0
        while frontier and OUTSIDE not in frontier:
            frontier = {q for p in frontier for q in self.neighbours.get(p, ())} - seen
            seen |= frontier
            k += 1
        return k if OUTSIDE in frontier else 10 ** 6


def good_kind(good: str) -> str:
    """A good's kind: 'drink' for a drink id ('red-tall_can'), else the id's name before '#'."""
    return good.split("#", 1)[0] if "#" in good else "drink"


def _numbered(kind: str, count: int, start: int = 1) -> tuple[str, ...]:
    return tuple(f"{kind}#{i}" for i in range(start, start + count))


def _approximate() -> Plan:
    values: dict[str, int] = {}

    def valued(kind: str, faces: tuple[int, ...], start: int) -> tuple[str, ...]:
        ids = _numbered(kind, len(faces), start)
        values.update({g: 100 * v for g, v in zip(ids, faces)})
        return ids

    tunas, crabs = valued("tuna", TUNAS_SHOWN, 1), valued("crab", CRABS_SHOWN, 1)
    bag = valued("tuna", TUNAS_IN_BAG, 1 + len(TUNAS_SHOWN)) + valued("crab", CRABS_IN_BAG, 1 + len(CRABS_SHOWN))
    salmon = _numbered("salmon", 2 * SALMON_PER_CARD)
    top = [(tunas[0],), (tunas[1],), ("washer#1", *salmon[:SALMON_PER_CARD]), ("dryer#1",),
           ("washer#2", *salmon[SALMON_PER_CARD:]), (crabs[0],), (crabs[1],)]
    cards = [Card(f"r0_{i}", 0, 2 * i - 6, goods) for i, goods in enumerate(top)]
    cards += [Card(f"r1_{i}", 1, 2 * i - 5) for i in range(DRINK_CARDS)]
    counts: dict[str, int] = {}
    clothes = []
    for kind in CLOTHES_LAID:
        counts[kind] = counts.get(kind, 0) + 1
        clothes.append(f"{kind}#{counts[kind]}")
    outer = iter(clothes)
    for row, middle in ((2, _numbered("detergent", DETERGENTS)), (3, _numbered("magazine", MAGAZINES))):
        cards += [Card(f"r{row}_{i}", row, 2 * i - 8, middle if i == 4 else (next(outer),)) for i in range(9)]

    by_row = {r: [c for c in cards if c.row == r] for r in range(4)}
    points: list[Point] = []
    for aisle in range(4):
        beside = by_row[aisle] + (by_row[aisle + 1] if aisle < 3 else [])
        xs = {c.x2 for c in beside} | ({-1, 1} if aisle >= 2 else set())   # the double aisles
        points += [Point(f"{AISLES[aisle]}{k + 1}", aisle, x) for k, x in enumerate(sorted(xs))]
    at = {(p.aisle, p.x2): p.id for p in points}

    def _pid(aisle: int, x2: int) -> str:
        return at[(aisle, x2)]

    lines: list[tuple[str, str]] = []
    for aisle in range(4):
        row = [p for p in points if p.aisle == aisle]
        lines += [(a.id, b.id) for a, b in zip(row, row[1:])]
    for aisle in range(3):   # the side aisles join each aisle's ends to the next aisle's
        upper = [p for p in points if p.aisle == aisle]
        lower = [p for p in points if p.aisle == aisle + 1]
        lines += [(upper[0].id, lower[0].id), (upper[-1].id, lower[-1].id)]
    lines += [(_pid(0, 0), _pid(1, 0))]   # between the two halves of the drink row
    lines += [(_pid(a, x), _pid(a + 1, x)) for a in (1, 2) for x in (-1, 1)]   # up the double aisles
    exits = (_pid(3, -1), _pid(3, 1))
    lines += [(e, OUTSIDE) for e in exits]
    faces = {p.id: tuple(c.id for c in cards if c.row in (p.aisle, p.aisle + 1) and abs(c.x2 - p.x2) <= 1)
             for p in points}
    vending = (_pid(0, 6), _pid(1, 8))   # the right ends of the aisles beside the drink row
    return _joined(Plan("approximate", True, tuple(cards), tuple(points), tuple(lines), faces, exits, vending,
                        bag, values))


def _joined(plan: Plan) -> Plan:
    """The plan with each point's neighbours along its lines."""
    near: dict[str, list[str]] = {}
    for a, b in plan.lines:
        near.setdefault(a, []).append(b)
        near.setdefault(b, []).append(a)
    return Plan(**{**plan.__dict__, "neighbours": {p: tuple(sorted(q)) for p, q in near.items()}})


def plan_data(plan: Plan) -> dict:
    """A plan as plain data (JSON-ready): what a table's own plan is written as."""
    return {"name": plan.name, "approximate": plan.approximate,
            "cards": [{"id": c.id, "row": c.row, "x2": c.x2, "goods": list(c.goods)} for c in plan.cards],
            "points": [{"id": p.id, "aisle": p.aisle, "x2": p.x2} for p in plan.points],
            "lines": [list(line) for line in plan.lines], "faces": {p: list(c) for p, c in plan.faces.items()},
            "exits": list(plan.exits), "vending": list(plan.vending), "bag": list(plan.bag), "values": dict(plan.values)}


def plan_from_data(data: Mapping) -> Plan:
    """A plan from plain data (``plan_data``'s form; lines to ``OUTSIDE`` are the exits' own and are
    added when missing). ValueError, naming what is wrong, for a line, a face, an exit or a vending
    point that names no point or card, or a good laid twice."""
    cards = tuple(Card(c["id"], int(c["row"]), int(c["x2"]), tuple(c.get("goods", ()))) for c in data["cards"])
    points = tuple(Point(p["id"], int(p["aisle"]), int(p["x2"])) for p in data["points"])
    ids, card_ids = {p.id for p in points}, {c.id for c in cards}
    exits, vending = tuple(data["exits"]), tuple(data["vending"])
    lines = tuple(tuple(line) for line in data["lines"])
    lines += tuple((e, OUTSIDE) for e in exits if (e, OUTSIDE) not in lines)
    wrong = [x for line in lines for x in line if x not in ids | {OUTSIDE}] + [x for x in exits + vending if x not in ids]
    wrong += [c for faced in data["faces"].values() for c in faced if c not in card_ids]
    laid = [g for c in cards for g in c.goods] + list(data.get("bag", ()))
    if wrong or len(laid) != len(set(laid)) or set(data["faces"]) - ids:
        raise ValueError(f"plan {data.get('name')!r}: unknown points or cards {sorted(set(wrong))}, "
                         f"or a good laid twice, or faces of unknown points")
    return _joined(Plan(str(data["name"]), bool(data["approximate"]), cards, points, lines,
                        {p: tuple(c) for p, c in data["faces"].items()}, exits, vending, tuple(data.get("bag", ())),
                        {g: int(v) for g, v in data.get("values", {}).items()}))


PLANS: dict[str, Plan] = {"approximate": _approximate()}
