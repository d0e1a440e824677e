"""What the JIDOHANBAIKI game modules share: argument checks, seats around the table, drinks that
fall out of the tower between throws, the drop awaited, and small helpers for drinks and yen
(sealed bids are in sealed.py, the turns around a tower in tower_turns.py).

Everything here is pure (no I/O, no clock, no randomness). A game is a declaration
(rules/declared.py); these helpers keep its module short and its refusals worded as the others'.

>>> clockwise(2, 4)
(2, 3, 0, 1)
>>> square_price(3)
900
>>> sort_drinks(["red-tall_can", "black-stubby_can"])
['black-stubby_can', 'red-tall_can']
"""
from __future__ import annotations

import dataclasses
from dataclasses import replace
from typing import Any, Iterable, Mapping, Sequence

from ...drinks import ALL_DRINKS, CARD_IDS, TOWER_ITEM_IDS, Drink
from ..engine import ChanceDrop, Event, IllegalMove, Move

YEN_STEP = 100  # the smallest yen tile


# --- seats ---------------------------------------------------------------------------------

def seat_names(config: Mapping[str, Any], n: int) -> tuple[str, ...]:
    names = list(config.get("names") or [f"Player {i + 1}" for i in range(n)])
    if len(names) != n:
        raise IllegalMove(f"give {n} player names, not {len(names)}")
    return tuple(str(x) for x in names)


def clockwise(start: int, n: int) -> tuple[int, ...]:
    """Seats clockwise from ``start`` (seat i+1 sits to the left of seat i)."""
    return tuple((start + i) % n for i in range(n))


class AroundTheTable:
    """A game state's seats around the table (for a state with ``seats`` and ``start_player``):
    how many sit there, and their order clockwise from the start player."""

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def order(self) -> tuple[int, ...]:
        return clockwise(self.start_player, self.n)


def set_at(items: tuple, i: int, **changes: Any) -> tuple:
    """A copy of a tuple of frozen dataclasses with item ``i`` changed."""
    return tuple(replace(x, **changes) if k == i else x for k, x in enumerate(items))


def top(values: Mapping[int, int] | Sequence[int], among: Iterable[int] | None = None) -> tuple[int, ...]:
    """The keys (seats) holding the highest value; ties share."""
    vals = dict(values) if isinstance(values, Mapping) else dict(enumerate(values))
    keys = list(among) if among is not None else list(vals)
    if not keys:
        return ()
    best = max(vals[k] for k in keys)
    return tuple(k for k in keys if vals[k] == best)


def square_price(n: int, unit: int = YEN_STEP) -> int:
    """1 for 100, 2 for 400, 3 for 900: the price that grows with the square."""
    return n * n * unit


# --- drinks ---------------------------------------------------------------------------------

_ORDER = {x: i for i, x in enumerate(TOWER_ITEM_IDS)}   # the drinks first, then the add-ons' items
_DRINKS = {d.id: d for d in ALL_DRINKS}
_TRAITS = {d.id: (d.colour.value, d.shape.value) for d in ALL_DRINKS}


def drink(drink_id: str) -> Drink:
    return _DRINKS[drink_id]


def sort_drinks(ids: Iterable[str]) -> list[str]:
    """Catalogue order: by colour, then shape lowest to tallest (an add-on's items after the drinks)."""
    return sorted(ids, key=_ORDER.__getitem__)


def matches(drink_id: str, card_id: str) -> bool:
    """Whether a drink has the colour or the shape a stock card names."""
    return card_id in _TRAITS[drink_id]


def traits(drink_id: str) -> tuple[str, str]:
    """A drink's colour id and shape id."""
    return _TRAITS[drink_id]


def count_matching(drinks: Iterable[str], card_id: str) -> int:
    return sum(1 for d in drinks if card_id in _TRAITS[d])


def trait_counts(drinks: Iterable[str]) -> dict[str, int]:
    """How many of ``drinks`` match each colour and shape card (cards with none left out)."""
    counts: dict[str, int] = {}
    for d in drinks:
        for t in _TRAITS[d]:
            counts[t] = counts.get(t, 0) + 1
    return counts


def distinct_traits(drinks: Iterable[str]) -> tuple[int, int]:
    """How many different colours and how many different shapes."""
    ds = [_DRINKS[d] for d in drinks]
    return len({d.colour for d in ds}), len({d.shape for d in ds})


def best_attribute(drinks: Sequence[str]) -> tuple[str | None, int]:
    """The colour or shape most of ``drinks`` share, and how many (first in card order on ties)."""
    counts = trait_counts(drinks)
    best, n = None, 0
    for card in CARD_IDS:
        k = counts.get(card, 0)
        if k > n:
            best, n = card, k
    return best, n


# --- reading move arguments -----------------------------------------------------------------

def arg(move: Move, name: str) -> Any:
    if name not in move.args:
        raise IllegalMove(f"a {move.kind!r} move needs {name!r}", move)
    return move.args[name]


def arg_int(move: Move, name: str, default: Any = dataclasses.MISSING) -> int:
    value = move.args.get(name, default) if default is not dataclasses.MISSING else arg(move, name)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalMove(f"{name!r} must be a whole number, not {value!r}", move)
    return value


def arg_text(move: Move, name: str, choices: Iterable[str] | None = None) -> str:
    value = arg(move, name)
    if not isinstance(value, str):
        raise IllegalMove(f"{name!r} must be text, not {value!r}", move)
    if choices is not None:
        choices = list(choices)
        if value not in choices:
            raise IllegalMove(f"{name!r} must be one of {', '.join(choices)}, not {value!r}", move)
    return value


def arg_bool(move: Move, name: str, default: bool = False) -> bool:
    value = move.args.get(name, default)
    if not isinstance(value, bool):
        raise IllegalMove(f"{name!r} must be true or false, not {value!r}", move)
    return value


def arg_drink(move: Move, name: str = "drink") -> str:
    value = arg(move, name)
    if not isinstance(value, str) or value not in _DRINKS:
        raise IllegalMove(f"{name!r} must be a drink id such as 'red-short_can', not {value!r}", move)
    return value


def arg_card(move: Move, name: str = "card") -> str:
    value = arg(move, name)
    if not isinstance(value, str) or value not in CARD_IDS:
        raise IllegalMove(f"{name!r} must be a colour or shape id ({', '.join(CARD_IDS)}), not {value!r}", move)
    return value


def arg_list(move: Move, name: str, default: Any = dataclasses.MISSING) -> tuple:
    value = move.args.get(name, default) if default is not dataclasses.MISSING else arg(move, name)
    if not isinstance(value, (list, tuple)):
        raise IllegalMove(f"{name!r} must be a list, not {value!r}", move)
    return tuple(value)


def arg_drinks(move: Move, name: str = "drinks", default: Any = dataclasses.MISSING,
               allow_empty: bool = True) -> tuple[str, ...]:
    """A list of distinct drink ids."""
    items = arg_list(move, name, default)
    bad = [d for d in items if not isinstance(d, str) or d not in _DRINKS]
    if bad:
        raise IllegalMove(f"{name!r} must list drink ids such as 'red-short_can'; not drinks: "
                          f"{', '.join(map(repr, bad))}", move)
    if len(set(items)) != len(items):
        raise IllegalMove(f"the same drink is listed twice in {name!r}", move)
    if not items and not allow_empty:
        raise IllegalMove(f"{name!r} must name at least one drink", move)
    return items


def seat_in(move: Move, seats: Iterable[int], name: str = "seat") -> int:
    """The seat ``move.args[name]`` names, one of ``seats`` (a chance outcome that picks a player)."""
    p = move.args.get(name)
    seats = list(seats)
    if p not in seats or isinstance(p, bool):
        raise IllegalMove(f"{name!r} must be one of {', '.join(map(str, seats))}, not {p!r}", move)
    return p


def arg_seat(move: Move, name: str, n: int) -> int:
    value = arg(move, name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise IllegalMove(f"{name!r} must be a seat from 0 to {n - 1}, not {value!r}", move)
    return value


def stepped_amounts(low: int, high: int, step: int = YEN_STEP) -> list[int]:
    return list(range(low, high + 1, step)) if high >= low else []


# --- the tower between throws ----------------------------------------------------------------
# For a game whose state keeps ``tower`` (rules/tower.py) and ``rethrow`` (drinks that fell out
# of the tower on their own since the last throw: they go in again with the next one).

def spill_to_rethrow(state: Any, move: Move) -> tuple[Any, list[Event]]:
    """A chance outcome at any moment: stuck drinks (``out``) fell out on their own. They pay
    nothing now and are thrown again with the next throw."""
    out = arg_drinks(move, "out")
    state = replace(state, tower=state.tower.spill(out), rethrow=state.rethrow | set(out))
    return state, [Event("spill", {"out": list(out)})]


def with_rethrow(state: Any, drinks: Iterable[str]) -> tuple[str, ...]:
    """What the next throw puts in the tower: ``drinks`` and whatever fell out since the last one."""
    return tuple(drinks) + tuple(sort_drinks(state.rethrow))


def thrown(state: Any, drinks: Iterable[str], move: Move) -> tuple[Any, Any]:
    """The state after a throw of ``drinks`` (with those to throw again) and the observed drop
    (``move.args["out"]``: what came out), and the tower's Drop."""
    out = arg_drinks(move, "out")
    tower, drop = state.tower.drop(with_rethrow(state, drinks), out)
    return replace(state, tower=tower, rethrow=frozenset()), drop


# --- money -----------------------------------------------------------------------------------

def need_yen(have: int, cost: int, what: str) -> None:
    if cost > have:
        raise IllegalMove(f"{what} costs {cost} yen and you have {have}")


# --- the tower -------------------------------------------------------------------------------

def awaited_drop(drinks: Iterable[str], tower: Any) -> ChanceDrop:
    """The drop of the tower awaited after ``drinks`` went in: they and what is stuck inside (a
    rules/tower.py Tower) that they can push out may come out."""
    drinks = tuple(drinks)
    return ChanceDrop("drop", drinks, tuple(sort_drinks(tower.freeable_by(drinks))))
