"""PURA (rule book 002): sorting recycled drinks, for one player.

All 36 drinks stand in the six crates (drawn at random; no crate may hold more than
three drinks sharing a colour or a shape, fixed by swapping with another crate). The
aim is to get every drink onto the twelve stock cards before the money runs out.
Spend a 100 coin to clear all drinks matching one card from one crate onto that card
(six at once earn 300 back from the spent 100s), or to swap drinks straight across the
touching sides of two crates (up to 2 on a short side, 3 on a long side). Spend a 500
coin to throw a whole crate into the tower: what comes out goes onto its cards; what
sticks must be pushed out by a later throw, and drinks still stuck after the last 500
lose the game. Score: the yen not spent. Harder: start with eight 100s and two 500s.

A crate is two slots wide and three long; slots are numbered row by row:
0 1 / 2 3 / 4 5. Its long sides are ``left`` (0, 2, 4) and ``right`` (1, 3, 5), its short
sides ``top`` (0, 1) and ``bottom`` (4, 5).

>>> s = setup({"layout": list(DRINK_IDS)})
>>> s.phase, excess(s.crates) > 0
('fix', True)
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, Mapping, Sequence

from ...drinks import CARD_IDS, DRINK_IDS
from ..engine import (CHANCE, Actor, ChanceDrop, ChanceSpec, Composite, Event, IllegalMove, Move, MoveInfo, Pending,
                      uniform)
from ..tower import Tower
from .common import (arg_card, arg_drinks, arg_int, arg_list, dispatch, drink, matches, options_from_config,
                     seat_names, sort_drinks, trait_counts, traits)

NAME = "pura"
TITLE = "PURA"
PLAYERS = (1,)

FILL, FIX, PLAY, DROP, OVER = "fill", "fix", "play", "drop", "over"
PHASES = (FILL, FIX, PLAY, DROP, OVER)
CRATES, SLOTS = 6, 6
SIDES = {"left": (0, 2, 4), "right": (1, 3, 5), "top": (0, 1), "bottom": (4, 5)}

Crates = tuple[tuple[str | None, ...], ...]


@dataclass(frozen=True)
class Options:
    players: int = 1
    hundreds: int = 10
    five_hundreds: int = 3
    hard: bool = False               # the harder game: eight 100s and two 500s
    action_cost: int = 100
    throw_cost: int = 500
    max_share: int = 3               # a crate may hold at most this many drinks sharing a colour or shape at the start
    bonus_at: int = 6                # clearing this many at once ...
    bonus_coins: int = 3             # ... takes this many 100s back from the spent ones
    out_to: str = "colour"           # drinks out of the tower go onto their "colour" or "shape" card
    fix_limit: int = 36              # fix-up swaps allowed at the start before play begins anyway

    def __post_init__(self) -> None:
        if self.out_to not in ("colour", "shape"):
            raise IllegalMove("option out_to must be 'colour' or 'shape'")

    @property
    def start_coins(self) -> tuple[int, int]:
        return (8, 2) if self.hard else (self.hundreds, self.five_hundreds)


@dataclass(frozen=True)
class State:
    options: Options
    name: str
    crates: Crates = ((None,) * SLOTS,) * CRATES
    phase: str = FILL
    hundreds: int = 0                # coins in hand
    fives: int = 0
    spent_hundreds: int = 0
    spent_fives: int = 0
    cards: tuple[tuple[str, tuple[str, ...]], ...] = tuple((c, ()) for c in CARD_IDS)
    tower: Tower = field(default_factory=Tower)
    thrown: tuple[str, ...] = ()
    fixes: int = 0
    actions: int = 0
    result: str | None = None        # "won" or "lost"
    why: str | None = None
    last: Mapping[str, Any] | None = None

    @property
    def yen(self) -> int:
        return self.hundreds * 100 + self.fives * 500

    def on_card(self, card: str) -> tuple[str, ...]:
        return dict(self.cards)[card]


def setup(config: Mapping[str, Any]) -> State:
    opts = options_from_config(Options, config, TITLE, PLAYERS)
    (name,) = seat_names(config, 1)
    h, f = opts.start_coins
    state = State(opts, name, hundreds=h, fives=f)
    layout = config.get("layout")
    if layout is not None:
        if not isinstance(layout, (list, tuple)) or sorted(layout) != sorted(DRINK_IDS):
            raise IllegalMove("'layout' must list all 36 drink ids, crate by crate, slot by slot")
        crates = tuple(tuple(layout[c * SLOTS:(c + 1) * SLOTS]) for c in range(CRATES))
        state = _after_fill(replace(state, crates=crates))
    return state


# --- the geometry and the starting rule --------------------------------------------------------

def excess(crates: Crates) -> int:
    """How far the crates are over the start rule (at most three sharing a colour or shape)."""
    return sum(max(0, k - 3) for c in crates for k in trait_counts(d for d in c if d).values())


def offending(crates: Crates, max_share: int = 3) -> list[tuple[int, int]]:
    """(crate, slot) of every drink that helps a crate break the start rule."""
    found = []
    for i, c in enumerate(crates):
        bad = {t for t, k in trait_counts(d for d in c if d).items() if k > max_share}
        found += [(i, s) for s, d in enumerate(c) if d and bad & set(traits(d))]
    return found


def _swap(crates: Crates, pairs: Sequence[tuple[int, int, int, int]]) -> Crates:
    grid = [list(c) for c in crates]
    for a, sa, b, sb in pairs:
        grid[a][sa], grid[b][sb] = grid[b][sb], grid[a][sa]
    return tuple(tuple(c) for c in grid)


def side_pairs(a_slots: Sequence[int], b_slots: Sequence[int]) -> bool:
    """Whether slots of one crate can face slots of another straight across touching sides
    of the same length (either way round, since crates may be turned)."""
    for sa in SIDES.values():
        if not set(a_slots) <= set(sa):
            continue
        for sb in SIDES.values():
            if len(sa) != len(sb) or not set(b_slots) <= set(sb):
                continue
            for rev in (False, True):
                if all((sb[::-1] if rev else sb)[sa.index(x)] == y for x, y in zip(a_slots, b_slots)):
                    return True
    return False


def _swap_shapes() -> tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]:
    """Every distinct straight-across swap between two crates (the geometry only)."""
    seen, found = set(), []
    for a, b in combinations(range(CRATES), 2):
        for sa in SIDES.values():
            for sb in SIDES.values():
                if len(sa) != len(sb):
                    continue
                for rev in (False, True):
                    tb = sb[::-1] if rev else sb
                    for k in range(1, len(sa) + 1):
                        for idx in combinations(range(len(sa)), k):
                            pairs = tuple((sa[i], tb[i]) for i in idx)
                            key = (a, b, frozenset(pairs))
                            if key not in seen:
                                seen.add(key)
                                found.append((a, b, tuple(x for x, _ in pairs), tuple(y for _, y in pairs)))
    return tuple(found)


_SWAP_SHAPES = _swap_shapes()


def _alignments() -> tuple[tuple[tuple[int, int], ...], ...]:
    """The ways two crates can stand side to side: the slot pairs facing each other."""
    found = []
    for sa in SIDES.values():
        for sb in SIDES.values():
            if len(sa) == len(sb):
                for tb in (sb, sb[::-1]):
                    found.append(tuple(zip(sa, tb)))
    return tuple(found)


_ALIGNMENTS = _alignments()


def _all_swaps(crates: Crates) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]:
    """The swaps that move something: no pair of the swap has two empty slots."""
    return [(a, b, sa, sb) for a, b, sa, sb in _SWAP_SHAPES
            if all(crates[a][x] is not None or crates[b][y] is not None for x, y in zip(sa, sb))]


# --- who acts -------------------------------------------------------------------------------

def pending(state: State) -> list[Pending]:
    if state.phase == OVER:
        return []
    if state.phase in (FILL, DROP):
        return [Pending(CHANCE)]
    return [Pending(0)]


def is_over(state: State) -> bool:
    return state.phase == OVER


def _waiting(state: State) -> str:
    return {FILL: "the next drink drawn for the crates", FIX: "a swap that fixes a crate with four alike",
            PLAY: "an action", DROP: "the drinks that came out of the tower", OVER: "nothing"}[state.phase]


def _fix_moves(state: State) -> list[Move]:
    bad = offending(state.crates, state.options.max_share)
    e = excess(state.crates)
    moves, fallback = [], []
    for a, sa in bad:
        for b in range(CRATES):
            if b == a:
                continue
            for sb in range(SLOTS):
                m = Move("fix", 0, {"a": a, "a_slot": sa, "b": b, "b_slot": sb})
                after = excess(_swap(state.crates, [(a, sa, b, sb)]))
                (moves if after < e else fallback).append(m)
    return moves or fallback


def _play_moves(state: State) -> list[Move]:
    moves = []
    if state.hundreds:
        for i, c in enumerate(state.crates):
            ds = [d for d in c if d]
            moves += [Move("clear", 0, {"crate": i, "card": card}) for card in CARD_IDS
                      if any(matches(d, card) for d in ds)]
        # Swaps (hundreds of them) are not listed: composite_moves describes them.
    if state.fives:
        moves += [Move("throw", 0, {"crate": i}) for i, c in enumerate(state.crates) if any(c)]
    return moves


def composite_moves(state: State, seat: int) -> list[dict]:
    """Swaps, one entry per pair of crates (a < b): pick slot pairs ``[a_slot, b_slot]`` that
    face each other along one way the crates can stand side to side (``within``); pairs of
    two empty slots are left out, as they move nothing."""
    if seat != 0 or state.phase != PLAY or not state.hundreds:
        return []
    cost = state.options.action_cost
    found = []
    for a, b in combinations(range(CRATES), 2):
        groups = []
        for pairs in _ALIGNMENTS:
            kept = sorted(p for p in pairs if state.crates[a][p[0]] is not None or state.crates[b][p[1]] is not None)
            if kept and kept not in groups:
                groups.append(kept)
        if not groups:
            continue
        items = sorted({p for g in groups for p in g})
        most = max(len(g) for g in groups)
        found.append(Composite("swap", {"arg": ["a_slots", "b_slots"], "from": [list(p) for p in items],
                                        "min": 1, "max": most, "within": [[list(p) for p in g] for g in groups],
                                        "shows": [[state.crates[a][x], state.crates[b][y]] for x, y in items]},
                               base={"a": a, "b": b},
                               price={str(k): cost for k in range(1, most + 1)}).to_json())
    return found


def legal_moves(state: State, actor: Actor) -> list[Move]:
    if actor == CHANCE:
        spec = chance(state)
        return [m for m, _ in spec.outcomes] if spec is not None and spec.kind == "choice" else []
    if actor != 0:
        return []
    if state.phase == FIX:
        return _fix_moves(state)
    if state.phase == PLAY:
        return _play_moves(state)
    return []


def _placed(state: State) -> set[str]:
    return {d for c in state.crates for d in c if d}


def chance(state: State) -> ChanceSpec | None:
    if state.phase == FILL:
        left = sorted(set(DRINK_IDS) - _placed(state), key=DRINK_IDS.index)
        return uniform(Move("fill", CHANCE, {"drink": d}) for d in left)
    if state.phase == DROP:
        return ChanceDrop("drop", state.thrown, tuple(sort_drinks(state.tower.inside)))
    return None


# --- applying moves ---------------------------------------------------------------------------

def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """The new state and what happened; IllegalMove (state untouched) if not allowed now."""
    return dispatch(state, move, over=is_over(state), pending=pending(state), phase=state.phase,
                    handlers=_HANDLERS, names=[state.name], waiting=_waiting(state), anytime={"spill": _spill})


def _fill(state: State, move: Move) -> tuple[State, list[Event]]:
    d = move.args.get("drink")
    if d not in DRINK_IDS or d in _placed(state):
        raise IllegalMove(f"{d!r} is not a drink still to be placed")
    k = len(_placed(state))
    c, s = divmod(k, SLOTS)
    crates = tuple(tuple(d if (i, j) == (c, s) else x for j, x in enumerate(cr)) for i, cr in enumerate(state.crates))
    state = replace(state, crates=crates)
    if k + 1 == CRATES * SLOTS:
        state = _after_fill(state)
    return state, [Event("filled", {"crate": c, "slot": s, "drink": d})]


def _after_fill(state: State) -> State:
    return replace(state, phase=FIX if excess(state.crates) and state.options.fix_limit > 0 else PLAY)


def _slot(move: Move, name: str) -> int:
    v = arg_int(move, name)
    if not 0 <= v < SLOTS:
        raise IllegalMove(f"{name!r} must be 0 to {SLOTS - 1}, not {v}")
    return v


def _crate(move: Move, name: str) -> int:
    v = arg_int(move, name)
    if not 0 <= v < CRATES:
        raise IllegalMove(f"{name!r} must be a crate from 0 to {CRATES - 1}, not {v}")
    return v


def _fix(state: State, move: Move) -> tuple[State, list[Event]]:
    a, sa, b, sb = _crate(move, "a"), _slot(move, "a_slot"), _crate(move, "b"), _slot(move, "b_slot")
    fix = Move("fix", 0, {"a": a, "a_slot": sa, "b": b, "b_slot": sb})
    if fix not in _fix_moves(state):
        raise IllegalMove("swap one drink that makes its crate break the start rule (more than three alike) with "
                          "a drink of another crate, so that the crates come closer to the rule")
    crates = _swap(state.crates, [(a, sa, b, sb)])
    state = replace(state, crates=crates, fixes=state.fixes + 1)
    if not excess(crates) or state.fixes >= state.options.fix_limit:
        state = replace(state, phase=PLAY)
    return state, [Event("fixed", {"a": a, "a_slot": sa, "b": b, "b_slot": sb})]


def _pay_100(state: State, what: str) -> State:
    if not state.hundreds:
        raise IllegalMove(f"{what} costs a 100-yen coin and you have none left")
    return replace(state, hundreds=state.hundreds - 1, spent_hundreds=state.spent_hundreds + 1,
                   actions=state.actions + 1)


def _add_to_card(cards: tuple, card: str, drinks: Sequence[str]) -> tuple:
    return tuple((c, tuple(sort_drinks(ds + tuple(drinks))) if c == card else ds) for c, ds in cards)


def _clear(state: State, move: Move) -> tuple[State, list[Event]]:
    o = state.options
    i, card = _crate(move, "crate"), arg_card(move)
    hit = [d for d in state.crates[i] if d and matches(d, card)]
    if not hit:
        raise IllegalMove(f"crate {i} holds no drink matching the {card} card")
    state = _pay_100(state, "clearing")
    crates = tuple(tuple(None if (k == i and d in hit) else d for d in c) for k, c in enumerate(state.crates))
    state = replace(state, crates=crates, cards=_add_to_card(state.cards, card, hit))
    events = [Event("cleared", {"crate": i, "card": card, "drinks": hit})]
    if len(hit) >= o.bonus_at:
        back = min(o.bonus_coins, state.spent_hundreds)
        state = replace(state, hundreds=state.hundreds + back, spent_hundreds=state.spent_hundreds - back)
        events.append(Event("bonus", {"yen": back * 100}))
    state = replace(state, last={"action": "clear", "crate": i, "card": card, "drinks": hit})
    return _check_end(state, events)


def _swap_move(state: State, move: Move) -> tuple[State, list[Event]]:
    a, b = _crate(move, "a"), _crate(move, "b")
    if a == b:
        raise IllegalMove("swap between two different crates")
    sa, sb = arg_list(move, "a_slots"), arg_list(move, "b_slots")
    if not sa or len(sa) != len(sb) or len(set(sa)) != len(sa) or len(set(sb)) != len(sb):
        raise IllegalMove("name as many slots in each crate ('a_slots', 'b_slots'), each once, at least one")
    for v in sa + sb:
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < SLOTS:
            raise IllegalMove(f"slots are 0 to {SLOTS - 1}, not {v!r}")
    if not side_pairs(sa, sb):
        raise IllegalMove("swapped drinks must face each other straight across one side of each crate: up to 2 "
                          "on a short side (top 0 1, bottom 4 5), up to 3 on a long side (left 0 2 4, right 1 3 5)")
    pairs = [(a, x, b, y) for x, y in zip(sa, sb)]
    if all(state.crates[a][x] is None and state.crates[b][y] is None for _, x, _, y in pairs):
        raise IllegalMove("those slots are all empty: nothing to swap")
    state = _pay_100(state, "swapping")
    state = replace(state, crates=_swap(state.crates, pairs),
                    last={"action": "swap", "a": a, "b": b, "a_slots": list(sa), "b_slots": list(sb)})
    return _check_end(state, [Event("swapped", {"a": a, "b": b, "a_slots": list(sa), "b_slots": list(sb)})])


def _throw(state: State, move: Move) -> tuple[State, list[Event]]:
    i = _crate(move, "crate")
    drinks = tuple(d for d in state.crates[i] if d)
    if not drinks:
        raise IllegalMove(f"crate {i} is empty")
    if not state.fives:
        raise IllegalMove("throwing a crate costs a 500-yen coin and you have none left")
    crates = tuple(((None,) * SLOTS if k == i else c) for k, c in enumerate(state.crates))
    state = replace(state, fives=state.fives - 1, spent_fives=state.spent_fives + 1, crates=crates,
                    thrown=drinks, phase=DROP, actions=state.actions + 1)
    return state, [Event("throwing", {"crate": i, "drinks": list(drinks)})]


def _out_card(state: State, d: str) -> str:
    x = drink(d)
    return x.colour.value if state.options.out_to == "colour" else x.shape.value


def _sort_out(state: State, out: Sequence[str]) -> tuple:
    cards = state.cards
    for d in out:
        cards = _add_to_card(cards, _out_card(state, d), [d])
    return cards


def _drop(state: State, move: Move) -> tuple[State, list[Event]]:
    out = arg_drinks(move, "out")
    tower, drop = state.tower.drop(state.thrown, out)
    state = replace(state, tower=tower, thrown=(), cards=_sort_out(state, drop.out), phase=PLAY,
                    last={"action": "throw", "drop": drop.to_json()})
    events = [Event("drop", drop.to_json())]
    if tower.inside and not state.fives:
        return _finish(state, "lost", "drinks are stuck in the tower and no 500-yen coin is left", events)
    return _check_end(state, events)


def _spill(state: State, move: Move) -> tuple[State, list[Event]]:
    out = arg_drinks(move, "out")
    tower = state.tower.spill(out)
    state = replace(state, tower=tower, cards=_sort_out(state, out))
    events = [Event("spill", {"out": list(out)})]
    if state.phase == PLAY:
        return _check_end(state, events)
    return state, events


def sorted_count(state: State) -> int:
    return sum(len(ds) for _, ds in state.cards)


def _can_act(state: State) -> bool:
    """Some action is possible: a drink left in a crate and a coin to spend on it."""
    return any(any(c) for c in state.crates) and bool(state.hundreds or state.fives)


def _check_end(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    if sorted_count(state) == len(DRINK_IDS):
        return _finish(state, "won", "every drink is on a stock card", events)
    if not _can_act(state):
        why = ("the money ran out" if not (state.hundreds or state.fives) else
               "drinks are stuck in the tower with no crate left to throw" if state.tower.inside else
               "no action can sort the drinks left")
        return _finish(state, "lost", why, events)
    return state, events


def _finish(state: State, result: str, why: str, events: list[Event]) -> tuple[State, list[Event]]:
    state = replace(state, phase=OVER, result=result, why=why)
    return state, events + [Event("game_over", {"result": result, "why": why, "score": score(state)})]


def score(state: State) -> int | None:
    """The yen not spent, for a won game."""
    return state.yen if state.result == "won" else None


_HANDLERS = {
    (FILL, "fill"): _fill, (FIX, "fix"): _fix, (PLAY, "clear"): _clear, (PLAY, "swap"): _swap_move,
    (PLAY, "throw"): _throw, (DROP, "drop"): _drop,
}


# --- views ----------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    return {
        "game": NAME, "phase": state.phase,
        "players": [{"seat": 0, "name": state.name, "yen": state.yen, "turn": state.phase in (FIX, PLAY)}],
        "turn": 0 if state.phase in (FIX, PLAY) else None,
        "to_act": [{"actor": w.actor, "secret_for": w.secret_for} for w in pending(state)],
        "crates": [list(c) for c in state.crates],
        "cards": {c: list(ds) for c, ds in state.cards}, "sorted": sorted_count(state),
        "coins": {"100": state.hundreds, "500": state.fives},
        "spent": {"100": state.spent_hundreds, "500": state.spent_fives},
        "tower": {"stuck": sort_drinks(state.tower.inside)}, "thrown": list(state.thrown),
        "start_rule_excess": excess(state.crates), "offending": [list(x) for x in offending(state.crates)],
        "fixes": state.fixes, "actions": state.actions, "last": dict(state.last) if state.last else None,
        "result": state.result, "why": state.why, "score": score(state),
        "winners": [0] if state.result == "won" else [], "over": state.phase == OVER,
    }


def payouts(state: State) -> dict:
    return {"yen": [state.yen], "score": score(state), "result": state.result,
            "final": state.phase == OVER, "winners": [0] if state.result == "won" else []}


def move_info(state: State, move: Move) -> MoveInfo:
    o = state.options
    if move.kind == "clear":
        i, card = move.args.get("crate"), move.args.get("card")
        n = sum(1 for d in state.crates[i] if d and matches(d, card)) if isinstance(i, int) and 0 <= i < CRATES \
            and card in CARD_IDS else 0
        return MoveInfo(cost=o.action_cost, pays_up_to=o.bonus_coins * 100 if n >= o.bonus_at else 0)
    if move.kind == "swap":
        return MoveInfo(cost=o.action_cost)
    if move.kind == "throw":
        return MoveInfo(cost=o.throw_cost)
    return MoveInfo()
