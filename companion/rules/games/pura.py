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

The crates, their sides and the start rule are in pura_crates.py.

>>> s = setup({"layout": list(DRINK_IDS)})
>>> s.phase, excess(s.crates) > 0
('fix', True)
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal, Mapping, Sequence

from ...drinks import CARD_IDS, DRINK_IDS
from ..declared import Declared, Kind, Phase, nothing_hidden
from ..engine import CHANCE, ChanceSpec, Composite, Event, IllegalMove, Move, MoveInfo, Pending, uniform
from ..options import Flag, GameOptions, Players, Whole
from ..tower import Tower
from .common import arg_card, arg_drinks, arg_int, arg_list, awaited_drop, drink, matches, seat_names, sort_drinks
from .pura_crates import CRATES, SLOTS, Crates, crate_excess, excess, offending, side_pairs, swap_composites, swapped
from .tower_turns import to_act

NAME = "pura"
TITLE = "PURA"
PLAYERS = (1,)
RULE = "002 PURA"

FILL, FIX, PLAY, DROP, OVER = "fill", "fix", "play", "drop", "over"


class Options(GameOptions):
    players: Players = 1
    hundreds: Whole = 10
    five_hundreds: Whole = 3
    hard: Flag = False               # the harder game: eight 100s and two 500s
    action_cost: Whole = 100
    throw_cost: Whole = 500
    max_share: Whole = 3             # a crate may hold at most this many drinks sharing a colour or shape at the start
    bonus_at: Whole = 6              # clearing this many at once ...
    bonus_coins: Whole = 3           # ... takes this many 100s back from the spent ones
    out_to: Literal["colour", "shape"] = "colour"  # drinks out of the tower go onto their colour or shape card
    fix_limit: Whole = 36            # fix-up swaps allowed at the start before play begins anyway
    # What the fix-up swaps count a crate's excess against: max_share. Rules version 1 counted it
    # against three whatever max_share said (with max_share 4 a game could wait for a fix that no
    # listed swap made); its games keep that reading.
    fix_counts: Literal["max_share", "three"] = "max_share"

    EARLIER = {1: {"fix_counts": "three"}}

    @property
    def start_coins(self) -> tuple[int, int]:
        return (8, 2) if self.hard else (self.hundreds, self.five_hundreds)

    @property
    def counted_share(self) -> int:
        """The share the fix-up swaps bring the crates down to."""
        return 3 if self.fix_counts == "three" else self.max_share


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
    why: str | None = None           # why it ended, as a word the dashboard translates (value.<why>)
    last: Mapping[str, Any] | None = None

    @property
    def yen(self) -> int:
        return self.hundreds * 100 + self.fives * 500

    def on_card(self, card: str) -> tuple[str, ...]:
        return dict(self.cards)[card]


def start(opts: Options, config: Mapping[str, Any]) -> State:
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


# --- who acts, and what they may do ---------------------------------------------------------

def _solo(state: State) -> list[Pending]:
    return [Pending(0)]


def _excess(state: State) -> int:
    """How far the crates are over the start rule, as the fix-up swaps count it."""
    return excess(state.crates, state.options.counted_share)


def _fix_moves(state: State, seat: int = 0) -> list[Move]:
    """Swaps of a drink that makes its crate break the start rule with any drink of another crate:
    those that bring the crates closer to the rule, or (when none does) all of them."""
    share = state.options.counted_share
    each = [crate_excess(c, share) for c in state.crates]
    moves, fallback = [], []
    for a, sa in offending(state.crates, state.options.max_share):
        for b in range(CRATES):
            if b == a:
                continue
            for sb in range(SLOTS):
                m = Move("fix", 0, {"a": a, "a_slot": sa, "b": b, "b_slot": sb})
                (moves if _fix_gain(state, a, sa, b, sb, each) > 0 else fallback).append(m)
    return moves or fallback


def _fix_gain(state: State, a: int, sa: int, b: int, sb: int, each: Sequence[int]) -> int:
    """How much closer to the start rule a fix-up swap brings the crates (``each``: their excess now)."""
    share = state.options.counted_share
    after = swapped((state.crates[a], state.crates[b]), [(0, sa, 1, sb)])
    return each[a] + each[b] - crate_excess(after[0], share) - crate_excess(after[1], share)


def _clears(state: State, seat: int) -> list[Move]:
    if not state.hundreds:
        return []
    return [Move("clear", 0, {"crate": i, "card": card}) for i, c in enumerate(state.crates) for card in CARD_IDS
            if any(d and matches(d, card) for d in c)]


def _throws(state: State, seat: int) -> list[Move]:
    return [Move("throw", 0, {"crate": i}) for i, c in enumerate(state.crates) if any(c)] if state.fives else []


def _swaps(state: State, seat: int) -> list[Composite]:
    """Swaps (hundreds of them) are not listed: one composite per pair of crates describes them."""
    return swap_composites(state.crates, state.options.action_cost) if state.hundreds else []


def _placed(state: State) -> set[str]:
    return {d for c in state.crates for d in c if d}


def _drinks_left(state: State) -> ChanceSpec:
    left = sorted(set(DRINK_IDS) - _placed(state), key=DRINK_IDS.index)
    return uniform(Move("fill", CHANCE, {"drink": d}) for d in left)


def _throw_out(state: State) -> ChanceSpec:
    return awaited_drop(state.thrown, state.tower)


# --- applying moves ---------------------------------------------------------------------------

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
    return replace(state, phase=FIX if _excess(state) and state.options.fix_limit > 0 else PLAY)


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
    each = [crate_excess(c, state.options.counted_share) for c in state.crates]
    helps = b != a and (a, sa) in offending(state.crates, state.options.max_share) and \
        _fix_gain(state, a, sa, b, sb, each) > 0
    if not helps and fix not in _fix_moves(state):  # a swap that does not help only when none does
        raise IllegalMove(f"swap one drink that makes its crate break the start rule (more than "
                          f"{state.options.max_share} alike) with a drink of another crate, so that the crates "
                          "come closer to the rule")
    state = replace(state, crates=swapped(state.crates, [(a, sa, b, sb)]), fixes=state.fixes + 1)
    if not _excess(state) or state.fixes >= state.options.fix_limit:
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
    state = replace(state, crates=swapped(state.crates, pairs),
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
        return _finish(state, "lost", "stuck_no_500", events)
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
        return _finish(state, "won", "all_sorted", events)
    if not _can_act(state):
        why = ("money_ran_out" if not (state.hundreds or state.fives) else
               "stuck_no_crate" if state.tower.inside else "nothing_to_sort")
        return _finish(state, "lost", why, events)
    return state, events


def _finish(state: State, result: str, why: str, events: list[Event]) -> tuple[State, list[Event]]:
    state = replace(state, phase=OVER, result=result, why=why)
    return state, events + [Event("game_over", {"result": result, "why": why, "score": score(state)})]


def score(state: State) -> int | None:
    """The yen not spent, for a won game."""
    return state.yen if state.result == "won" else None


# --- views ----------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    return {
        "game": NAME, "phase": state.phase,
        "players": [{"seat": 0, "name": state.name, "yen": state.yen, "turn": state.phase in (FIX, PLAY)}],
        "turn": 0 if state.phase in (FIX, PLAY) else None,
        "to_act": to_act(GAME.pending(state)),
        "crates": [list(c) for c in state.crates],
        "cards": {c: list(ds) for c, ds in state.cards}, "sorted": sorted_count(state),
        "coins": {"100": state.hundreds, "500": state.fives},
        "spent": {"100": state.spent_hundreds, "500": state.spent_fives},
        "tower": {"stuck": sort_drinks(state.tower.inside)}, "thrown": list(state.thrown),
        "start_rule_excess": _excess(state),
        "offending": [list(x) for x in offending(state.crates, state.options.max_share)],
        "fixes": state.fixes, "actions": state.actions, "last": dict(state.last) if state.last else None,
        "result": state.result, "why": state.why, "score": score(state),
        "winners": [0] if state.result == "won" else [], "over": state.phase == OVER,
    }


def payouts(state: State) -> dict:
    return {"yen": [state.yen], "score": score(state), "result": state.result,
            "final": state.phase == OVER, "winners": [0] if state.result == "won" else []}


def _clear_info(state: State, move: Move) -> MoveInfo:
    o = state.options
    i, card = move.args.get("crate"), move.args.get("card")
    n = sum(1 for d in state.crates[i] if d and matches(d, card)) if isinstance(i, int) and 0 <= i < CRATES \
        and card in CARD_IDS else 0
    return MoveInfo(cost=o.action_cost, pays_up_to=o.bonus_coins * 100 if n >= o.bonus_at else 0,
                    why="why.pura.clear", params={"n": n, "least": o.bonus_at, "coins": o.bonus_coins})


def _swap_info(state: State, move: Move) -> MoveInfo:
    return MoveInfo(cost=state.options.action_cost, why="why.pura.coin100")


def _throw_info(state: State, move: Move) -> MoveInfo:
    return MoveInfo(cost=state.options.throw_cost, why="why.pura.coin500")


def _playout_work(state: State) -> int:
    """What a playout from here costs, in the estimate budget's units (about a TOKYO METRO
    seat-round each): one per coin left, and twenty per fix-up swap still to make."""
    fixes = min(state.options.fix_limit - state.fixes, _excess(state)) if state.phase == FIX else 0
    return state.hundreds + state.fives + 20 * fixes


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(FILL, "the next drink drawn for the crates", outcomes=_drinks_left,
              ends="when all 36 drinks stand in the crates (or the table gave the layout)"),
        Phase(FIX, lambda s: f"a swap that fixes a crate with more than {s.options.max_share} alike", acting=_solo,
              ends="when every crate keeps the start rule, or after fix_limit swaps"),
        Phase(PLAY, "an action", acting=_solo, ends="when every drink is sorted, or the game is lost"),
        Phase(DROP, "the drinks that came out of the tower", outcomes=_throw_out, ends="with the drop"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("fill", _fill, f"{RULE}: VORBEREITUNG", phases=(FILL,), chance=True),
        Kind("fix", _fix, f"{RULE}: VORBEREITUNG", phases=(FIX,), listed=_fix_moves),
        Kind("clear", _clear, f"{RULE}: 100-YEN-MÜNZE", phases=(PLAY,), listed=_clears, info=_clear_info),
        Kind("swap", _swap_move, f"{RULE}: 100-YEN-MÜNZE", phases=(PLAY,), compose=_swaps, info=_swap_info),
        Kind("throw", _throw, f"{RULE}: 500-YEN-MÜNZE", phases=(PLAY,), listed=_throws, info=_throw_info),
        Kind("drop", _drop, f"{RULE}: 500-YEN-MÜNZE", phases=(DROP,), chance=True),
        Kind("spill", _spill, f"{RULE}: 500-YEN-MÜNZE", chance=True, anytime=True),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: (state.name,),
    redraw=nothing_hidden, playout_cost=_playout_work,  # one player, who sees every crate and the tower
    # what a person copies onto the real table (drinks into the tower or a crate; cards taken)
    board_events=frozenset({"filled", "cleared", "fixed", "throwing"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
