"""What the declared games share in which the player whose turn it is throws drinks into the
tower one by one (CHOCOLATE MILK, the vending-machine poker game): a start player named in the
config or drawn by chance, the seat whose turn it is, the drop of the drink thrown now, and a
drink stuck inside that falls out on its own.

A state these helpers take has ``player`` (whose turn it is), ``n`` (how many seats), ``tower``
(rules/tower.py) and ``flying`` (the drink thrown now).

>>> from types import SimpleNamespace
>>> start_player_outcomes(SimpleNamespace(n=2)).outcomes[1][0].args
{'seat': 1}
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping

from ..engine import CHANCE, ChanceChoice, ChanceDrop, Event, IllegalMove, Move, Pending, uniform
from .common import arg_drinks, sort_drinks

Applied = tuple[Any, list[Event]]


def _seat(value: Any, n: int, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise IllegalMove(f"{name} must be 0 to {n - 1}, not {value!r}")
    return value


def config_start_player(config: Mapping[str, Any], n: int) -> int | None:
    """The start player the config names (a table that knows it already), or None: drawn by chance."""
    start = config.get("start_player")
    return None if start is None else _seat(start, n, "seat")


def start_player_outcomes(state: Any) -> ChanceChoice:
    """Any seat may be drawn to start, each as likely."""
    return uniform(Move("start_player", CHANCE, {"seat": p}) for p in range(state.n))


def drawn_start_player(state: Any, move: Move) -> int:
    """The seat a ``start_player`` outcome names; IllegalMove for a seat that is not at the table."""
    return _seat(move.args.get("seat"), state.n, "'seat'")


def the_player(state: Any) -> list[Pending]:
    """The seat whose turn it is."""
    return [Pending(state.player)]


def throw_drop(state: Any) -> ChanceDrop:
    """What may come out when the drink thrown now goes in: it, or any drink stuck inside."""
    return ChanceDrop("drop", (state.flying,), tuple(sort_drinks(state.tower.inside)))


def to_act(waiting: Iterable[Pending]) -> list[dict]:
    """Whom the game waits for, as a view shows it."""
    return [{"actor": w.actor, "secret_for": w.secret_for} for w in waiting]


def spill(state: Any, move: Move, pool: str, to_thrower: Callable[[Any, tuple[str, ...]], Any | None]) -> Applied:
    """Drinks stuck in the tower fell out on their own (any time, nothing thrown in): to the
    player throwing when ``to_thrower(state, out)`` takes them (a new state, or None), else back to
    the state's ``pool`` (the supply, the heap)."""
    out = arg_drinks(move, "out")
    state = replace(state, tower=state.tower.spill(out))
    given = to_thrower(state, out)
    if given is not None:
        return given, [Event("spill", {"out": list(out), "to": state.player})]
    state = replace(state, **{pool: getattr(state, pool) | set(out)})
    return state, [Event("spill", {"out": list(out), "to": pool})]
