"""Which chance moves a landing camera's reading explains (the upside-down tower, LEMON SQUASH).

Two games wait for where drinks landed after the tower (rule book 002): the upside-down tower in
its LAND phase (a ``land`` {drink, spot} for each thrown drink: slot, crate, outside or stuck) and
LEMON SQUASH in its ORDER phase (``farthest`` {unit}: whose short can lies farthest from the tower,
next). What a game wants read is said here, on the table's side, by game id (:data:`READERS`),
not by a hook in the games' declarations: the two games already list exactly the outcomes a
person may tap (their chance specs), so the table only needs to know which drink each outcome is
about. The rules stay as they are (pure, and unaware of cameras); the moves proposed are always
taken from the engine's own listing, so nothing illegal can be proposed.

:func:`wanted` says what the camera is asked about now (None: the game waits for no landing);
:func:`explain` turns a :class:`~companion.landing.LandingReading` into the move sequences that
explain it, likeliest first, as board_moves' :class:`Explained`:

- none, when the reading is not usable or not one asked drink was seen (the tower is not lifted
  yet: the drinks are still inside it, or in a hand);
- one, when every asked drink was seen and read sure (and, in LEMON SQUASH, no two distances
  are a tie): a proposal the table confirms with one tap;
- several (a question, the likeliest first), when a drink was read unsure (its other spots
  follow), was not seen while another was (the upside-down tower: ``stuck`` first, it may be
  inside the tower; LEMON SQUASH: the can put last first, then earlier), or two short cans lie
  within :func:`tie` of each other (both orders).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable

from ..landing import Landing, LandingReading
from ..rules.engine import CHANCE, IllegalMove, Move
from .board_moves import Explained

MAX_CANDIDATES = 8     # several explanations: at most this many are put to the table
TIE_MM = 10            # two short cans this close (or TIE_SHARE of the farther's distance) are a tie:
TIE_SHARE = 0.05       # the landing reader's promised accuracy (docs/landing-camera.md)
NOT_SEEN_FIRST = "stuck"   # a thrown drink not seen while another is: likeliest still in the tower


@dataclass(frozen=True)
class Wanted:
    """What a game waits for from the landing camera: the ``kind`` of chance move (``land`` or
    ``farthest``), the ``drinks`` asked about (in the game's order) and, for ``farthest``, the
    unit each drink stands for."""

    kind: str
    drinks: tuple[str, ...]
    units: tuple[int, ...] = ()


def chance_outcomes(game: Any, state: Any, kind: str) -> list[Move]:
    spec = game.chance(state)
    outcomes = getattr(spec, "outcomes", None) or ()
    return [m for m, _p in outcomes if m.kind == kind]


def _tower_landings(game: Any, state: Any) -> Wanted | None:
    drinks: list[str] = []
    for move in chance_outcomes(game, state, "land"):
        if move.args["drink"] not in drinks:
            drinks.append(move.args["drink"])
    return Wanted("land", tuple(drinks)) if drinks else None


def _short_cans(game: Any, state: Any) -> Wanted | None:
    units = [m.args["unit"] for m in chance_outcomes(game, state, "farthest")]
    if not units:
        return None
    colours = {u["unit"]: u["colour"] for u in game.view(state, None)["units"]}
    return Wanted("farthest", tuple(f"{colours[u]}-short_can" for u in units), tuple(units))


# game id -> what it wants read now (see the module: a table-side map, the rules untouched)
READERS: dict[str, Callable[[Any, Any], Wanted | None]] = {
    "upside_down_tower": _tower_landings,
    "lemon_squash": _short_cans,
}


def reads_landings(game: Any) -> bool:
    """Whether the game scores drinks by where they land (the landing camera reads for it)."""
    return getattr(game, "name", None) in READERS


def wanted(game: Any, state: Any) -> Wanted | None:
    """What the game waits for from the landing camera now (None: nothing)."""
    reader = READERS.get(getattr(game, "name", None))
    return reader(game, state) if reader is not None and not game.is_over(state) else None


def tie(a: int, b: int) -> bool:
    """Whether two distances (mm) are too close for the camera to say which is farther."""
    return abs(a - b) <= max(TIE_MM, TIE_SHARE * max(a, b))


def explain(game: Any, state: Any, reading: LandingReading) -> Explained:
    """The chance-move sequences that explain ``reading`` in ``state`` (see the module)."""
    want = wanted(game, state)
    if want is None or not reading.usable:
        return Explained()
    seen = [reading.of(d) for d in want.drinks]
    if not any(x is not None and x.seen for x in seen):
        return Explained()
    orders = _tower_choices(want, seen) if want.kind == "land" else _farthest_choices(want, seen)
    legal = {(m.kind, m.args.get("drink"), m.args.get("spot"), m.args.get("unit"))
             for m in chance_outcomes(game, state, want.kind)}
    found: list[tuple[Move, ...]] = []
    tried = 0
    for moves in orders:
        if len(found) >= MAX_CANDIDATES:
            break
        tried += 1
        if moves in found or not _plays(game, state, moves, legal):
            continue
        found.append(moves)
    return Explained(tuple(found), bounded=len(found) >= MAX_CANDIDATES, expanded=1, tried=tried)


def _plays(game: Any, state: Any, moves: tuple[Move, ...], legal: set) -> bool:
    """Whether the engine takes the moves in turn (the first among the outcomes it lists now)."""
    first = moves[0]
    if (first.kind, first.args.get("drink"), first.args.get("spot"), first.args.get("unit")) not in legal:
        return False
    try:
        for move in moves:
            state, _ = game.apply(state, move)
    except IllegalMove:
        return False
    return True


def _varied(choices: list[list[Any]]) -> list[tuple[Any, ...]]:
    """Combinations of one choice for each place: all first choices, then one place varied at a
    time (in order), then the rest; without repeats."""
    first = tuple(c[0] for c in choices)
    out = [first]
    for i, c in enumerate(choices):
        for alt in c[1:]:
            out.append(first[:i] + (alt,) + first[i + 1:])
    for combo in itertools.islice(itertools.product(*choices), 4 * MAX_CANDIDATES):
        out.append(combo)
    return list(dict.fromkeys(out))


# --- the upside-down tower: a spot for each thrown drink ----------------------------------------

SPOT_CHOICES = ("slot", "crate", "outside", "stuck")


def _tower_choices(want: Wanted, seen: list[Landing | None]) -> list[tuple[Move, ...]]:
    choices = []
    for landing in seen:
        if landing is None or not landing.seen:
            choices.append([NOT_SEEN_FIRST] + [s for s in SPOT_CHOICES if s != NOT_SEEN_FIRST])
        elif landing.sure:
            choices.append([landing.spot])
        else:
            choices.append([landing.spot] + [s for s in SPOT_CHOICES if s != landing.spot])
    return [tuple(Move("land", CHANCE, {"drink": d, "spot": s}) for d, s in zip(want.drinks, combo))
            for combo in _varied(choices)]


# --- LEMON SQUASH: the units in the order their short cans lie, farthest first -----------------

def _farthest_choices(want: Wanted, seen: list[Landing | None]) -> list[tuple[Move, ...]]:
    found = [(u, x) for u, x in zip(want.units, seen) if x is not None and x.seen]
    missing = [u for u, x in zip(want.units, seen) if x is None or not x.seen]
    found.sort(key=lambda ux: (-ux[1].distance_mm, want.units.index(ux[0])))
    base = [u for u, _ in found] + missing
    orders = [base]
    for i in range(len(found) - 1):   # a tie, or a doubtful distance: the neighbours either way
        (ua, a), (ub, b) = found[i], found[i + 1]
        if tie(a.distance_mm, b.distance_mm) or not a.sure or not b.sure:
            orders.append(base[:i] + [ub, ua] + base[i + 2:])
    if not found[-1][1].sure:        # the nearest read with doubt: it may be nearer than a missing one
        for u in missing:
            orders.append(base[:len(found) - 1] + [u, found[-1][0]] + [m for m in missing if m != u])
    for u in missing:                # a can not seen: put last first, then each place before
        rest = [x for x in base if x != u]
        for place in range(len(rest) - 1, -1, -1):
            orders.append(rest[:place] + [u] + rest[place:])
    # the last unit's place follows from the others' (the engine adds it): n - 1 moves say it all
    return [tuple(Move("farthest", CHANCE, {"unit": u}) for u in order[:len(order) - 1])
            for order in dict.fromkeys(tuple(o) for o in orders)]
