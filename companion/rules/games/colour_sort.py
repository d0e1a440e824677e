"""The four-crate colour-sorting solo game (rule book 002; no title in our copy: ``colour_sort``).

Three colours are in play (the other colour cards and their drinks stay in the box); their 18
drinks stand at random in three outer crates (no crate with more than three drinks sharing a
colour or a shape: fixed by swapping), a fourth crate in the middle stands empty. The nine stock
cards left (six shapes, three colours) are the deck. Each card turned up names the drinks one of
which must move to another crate, into the SAME slot there. A 500 coin moves a drink to an empty
orthogonally adjacent slot of its own crate, a 1,000 note swaps two drinks of one crate. A card
whose drinks all stand where they belong is set aside; when the deck is used up, one 100 coin of
the time track goes, set-aside cards buy back spent 500s and 1,000s (500 yen a card) and the deck
is shuffled again. Win: each outer crate full of one colour before the last 100 coin goes. Score:
the yen not discarded plus the set-aside cards (3,900 at most with the standard coins).

Variants as options: ``extra_rounds`` (too hard), ``same_position`` (too easy: one more round,
and each shape in the same slot in every crate), ``win: "any"`` (too chaotic: any crates but one),
``colours`` 4 or 5 (too simple: a crate and a 100 coin per colour added). The crates are
pura_crates.py's 2x3 grids: slots 0 1 / 2 3 / 4 5. Options, state and where drinks belong are in
colour_sort_state.py. Our readings: docs/rules-notes.md.

>>> s = setup({"layout": LAYOUT_EXAMPLE})
>>> s.phase, s.colours, len(s.deck), s.yen
('draw', ('mint', 'blue', 'red'), 9, 3900)
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ...drinks import DRINK_IDS
from ..declared import Declared, Kind, Phase, nothing_hidden
from ..engine import CHANCE, ChanceSpec, Composite, Event, IllegalMove, Move, MoveInfo, Pending, uniform
from .colour_sort_state import (COLOUR_IDS, DRAW, FILL, FIX, LAYOUT_EXAMPLE, LEAVE, MOVE, NEIGHBOURS, OVER,  # noqa: F401
                                SHAPE_IDS, Options, State, is_home, is_won)
from .common import arg_int, arg_list, arg_text, drink, matches, seat_names
from .pura_crates import SLOTS, crate_excess, offending, swapped
from .tower_turns import to_act

NAME = "colour_sort"
TITLE = "Colour sort"
PLAYERS = (1,)
RULE = "002 colour sort"

def start(opts: Options, config: Mapping[str, Any]) -> State:
    (name,) = seat_names(config, 1)
    if opts.time_coins < 1:
        raise IllegalMove("the time track needs at least one 100 coin: raise 'hundreds'")
    state = State(opts, name, hundreds=opts.time_coins, fives=opts.fives, thousands=opts.thousands,
                  crates=((None,) * SLOTS,) * opts.crates)
    layout = config.get("layout")
    if layout is not None:
        n = opts.colours * SLOTS
        if not isinstance(layout, (list, tuple)) or len(layout) != n or len(set(layout)) != n \
                or not set(layout) <= set(DRINK_IDS) \
                or len({drink(d).colour.value for d in layout}) != opts.colours \
                or any(sum(1 for d in layout if d.startswith(c + "-")) not in (0, SLOTS) for c in COLOUR_IDS):
            raise IllegalMove(f"'layout' must list the {n} drinks of {opts.colours} whole colours, "
                              "outer crate by outer crate, slot by slot")
        colours = tuple(c for c in COLOUR_IDS if any(d.startswith(c + "-") for d in layout))
        crates = tuple(tuple(layout[c * SLOTS:(c + 1) * SLOTS]) for c in range(opts.colours)) + ((None,) * SLOTS,)
        state = _after_fill(replace(state, colours=colours, crates=crates))
    return state


# --- who acts, what chance brings -----------------------------------------------------------

def _solo(state: State) -> list[Pending]:
    return [Pending(0)]


def _colours_left(state: State) -> ChanceSpec:
    """Chance picks the colours in play one by one (the colour cards left in the box are the rest)."""
    return uniform(Move("colour", CHANCE, {"colour": c}) for c in COLOUR_IDS if c not in state.colours)


def _placed(state: State) -> set[str]:
    return {d for c in state.crates for d in c if d}


def _drinks_left(state: State) -> ChanceSpec:
    return uniform(Move("fill", CHANCE, {"drink": d}) for d in state.drinks if d not in _placed(state))


def _cards_left(state: State) -> ChanceSpec:
    return uniform(Move("draw", CHANCE, {"card": c}) for c in state.deck)


def _excess(state: State) -> int:
    return sum(crate_excess(state.crates[i], state.options.max_share) for i in state.outer)


def _fix_gain(state: State, a: int, sa: int, b: int, sb: int) -> int:
    share = state.options.max_share
    after = swapped((state.crates[a], state.crates[b]), [(0, sa, 1, sb)])
    return (crate_excess(state.crates[a], share) + crate_excess(state.crates[b], share)
            - crate_excess(after[0], share) - crate_excess(after[1], share))


def _fix_moves(state: State, seat: int = 0) -> list[Move]:
    """Swaps of a drink that makes its outer crate break the start rule with a drink of another
    outer crate: those that bring the crates closer to the rule, or (when none does) all of them."""
    good, fallback = [], []
    for a, sa in offending(state.crates[:-1], state.options.max_share):
        for b in state.outer:
            for sb in range(SLOTS) if b != a else ():
                m = Move("fix", 0, {"a": a, "a_slot": sa, "b": b, "b_slot": sb})
                (good if _fix_gain(state, a, sa, b, sb) > 0 else fallback).append(m)
    return good or fallback


def _moves(state: State, seat: int = 0) -> list[Move]:
    """The card's drinks that can go to the same slot of another crate."""
    card = state.card
    return [Move("move", 0, {"crate": i, "at": s, "into": j})
            for i, c in enumerate(state.crates) for s, d in enumerate(c) if d and card and matches(d, card)
            for j in range(len(state.crates)) if j != i and state.crates[j][s] is None]


def _passes(state: State, seat: int) -> list[Move]:
    return [] if _moves(state) else [Move("pass", 0, {})]


def _shifts(state: State, seat: int) -> list[Move]:
    if not state.fives:
        return []
    return [Move("shift", 0, {"crate": i, "at": s, "to_slot": t})
            for i, c in enumerate(state.crates) for s, d in enumerate(c) if d
            for t in NEIGHBOURS[s] if c[t] is None]


def _swaps(state: State, seat: int) -> list[Composite]:
    """Swaps of two drinks of one crate (up to 15 a crate, too many for buttons): one picker per
    crate holding two drinks or more, its drinks' slots to pick two of."""
    if not state.thousands:
        return []
    found = []
    for i, c in enumerate(state.crates):
        full = [s for s, d in enumerate(c) if d]
        if len(full) >= 2:
            found.append(Composite("swap_two", {"arg": "slots", "from": full, "min": 2, "max": 2,
                                                "shows": [c[s] for s in full]},
                                   base={"crate": i}, price={"2": 1000}))
    return found


# --- applying moves ---------------------------------------------------------------------------

def _index(move: Move, name: str, n: int) -> int:
    """A crate or slot number, 0 to n - 1."""
    value = arg_int(move, name)
    if not 0 <= value < n:
        raise IllegalMove(f"{name} must be 0 to {n - 1}, not {value!r}")
    return value


def _colour(state: State, move: Move) -> tuple[State, list[Event]]:
    c = arg_text(move, "colour", [c for c in COLOUR_IDS if c not in state.colours])
    colours = tuple(x for x in COLOUR_IDS if x in state.colours or x == c)
    state = replace(state, colours=colours)
    if len(colours) == state.options.colours:
        state = replace(state, phase=FILL)
    return state, [Event("colour_in_play", {"colour": c})]


def _fill(state: State, move: Move) -> tuple[State, list[Event]]:
    d = move.args.get("drink")
    if d not in state.drinks or d in _placed(state):
        raise IllegalMove(f"{d!r} is not a drink still to be placed")
    k = len(_placed(state))
    c, s = divmod(k, SLOTS)
    crates = tuple(tuple(d if (i, j) == (c, s) else x for j, x in enumerate(cr)) for i, cr in enumerate(state.crates))
    state = replace(state, crates=crates)
    if k + 1 == len(state.drinks):
        state = _after_fill(state)
    return state, [Event("drink_drawn", {"crate": c, "slot": s, "drink": d})]


def _after_fill(state: State) -> State:
    if _excess(state) and state.options.fix_limit > 0:
        return replace(state, phase=FIX)
    return replace(state, phase=DRAW, deck=state.cards)


def _fix(state: State, move: Move) -> tuple[State, list[Event]]:
    n = len(state.crates) - 1
    a, b = _index(move, "a", n), _index(move, "b", n)
    sa, sb = _index(move, "a_slot", SLOTS), _index(move, "b_slot", SLOTS)
    if Move("fix", 0, {"a": a, "a_slot": sa, "b": b, "b_slot": sb}) not in _fix_moves(state):
        raise IllegalMove(f"swap one drink that makes its crate break the start rule (more than "
                          f"{state.options.max_share} alike) with a drink of another outer crate, so that the "
                          "crates come closer to the rule")
    state = replace(state, crates=swapped(state.crates, [(a, sa, b, sb)]), fixes=state.fixes + 1)
    if not _excess(state) or state.fixes >= state.options.fix_limit:
        state = replace(state, phase=DRAW, deck=state.cards)
    return state, [Event("start_swap", {"a": a, "a_slot": sa, "b": b, "b_slot": sb})]


def _draw(state: State, move: Move) -> tuple[State, list[Event]]:
    card = arg_text(move, "card", state.deck)
    deck = tuple(c for c in state.deck if c != card)
    if is_home(state, card):
        state = replace(state, deck=deck, aside=state.aside + (card,))
        return _next_card(state, [Event("set_aside", {"card": card})])
    return replace(state, deck=deck, card=card, phase=MOVE), [Event("card_turned", {"card": card})]


def _move(state: State, move: Move) -> tuple[State, list[Event]]:
    n = len(state.crates)
    i, s, j = _index(move, "crate", n), _index(move, "at", SLOTS), _index(move, "into", n)
    d = state.crates[i][s]
    if d is None or not matches(d, state.card):
        raise IllegalMove(f"move a drink matching the {state.card} card: crate {i} slot {s} holds none")
    if j == i or state.crates[j][s] is not None:
        raise IllegalMove(f"the drink must go to the same slot ({s}) of another crate, and there it must be empty")
    crates = swapped(state.crates, [(i, s, j, s)])
    state = replace(state, crates=crates, card=None)
    return _after_move(state, [Event("drink_moved", {"drink": d, "crate": i, "at": s, "into": j})])


def _pass(state: State, move: Move) -> tuple[State, list[Event]]:
    if _moves(state):
        raise IllegalMove(f"a drink matching the {state.card} card can move: pass only when none can")
    return _after_move(replace(state, card=None), [Event("passed", {"card": state.card})])


def _shift(state: State, move: Move) -> tuple[State, list[Event]]:
    i = _index(move, "crate", len(state.crates))
    s, t = _index(move, "at", SLOTS), _index(move, "to_slot", SLOTS)
    if state.crates[i][s] is None or state.crates[i][t] is not None or t not in NEIGHBOURS[s]:
        raise IllegalMove("move a drink to an empty slot beside it or above or below it in the same crate "
                          "(not diagonally)")
    if not state.fives:
        raise IllegalMove("moving a drink within its crate costs a 500-yen coin and you have none left")
    d = state.crates[i][s]
    state = replace(state, crates=swapped(state.crates, [(i, s, i, t)]), fives=state.fives - 1,
                    spent_fives=state.spent_fives + 1)
    return _check_won(state, [Event("shifted", {"drink": d, "crate": i, "at": s, "to_slot": t})])


def _swap(state: State, move: Move) -> tuple[State, list[Event]]:
    i = _index(move, "crate", len(state.crates))
    slots = arg_list(move, "slots")
    if len(slots) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < SLOTS for x in slots):
        raise IllegalMove(f"'slots' must name two slots of the crate, each 0 to {SLOTS - 1}, not {list(slots)!r}")
    s, t = slots
    if s == t or state.crates[i][s] is None or state.crates[i][t] is None:
        raise IllegalMove("swap two drinks standing in two slots of the same crate")
    if not state.thousands:
        raise IllegalMove("swapping two drinks costs a 1,000-yen note and you have none left")
    state = replace(state, crates=swapped(state.crates, [(i, s, i, t)]), thousands=state.thousands - 1,
                    spent_thousands=state.spent_thousands + 1)
    return _check_won(state, [Event("swapped_in_crate", {"crate": i, "at": s, "other": t})])


def _check_won(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    return _finish(state, "won", "sorted", events) if is_won(state) else (state, events)


def _after_move(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    state, events = _check_won(state, events)
    return (state, events) if state.phase == OVER else _next_card(state, events)


def _next_card(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """The next card, or the round's end: a 100 coin goes, set-aside cards buy back spent coins
    (500 yen a card), and the whole deck is shuffled again (the chance draws are the shuffle)."""
    if state.deck:
        return replace(state, phase=DRAW), events
    state = replace(state, hundreds=state.hundreds - 1)
    cards, fives, thousands = len(state.aside), state.spent_fives, state.spent_thousands
    value = state.options.card_value
    per_note, per_coin = -(-1000 // value) if value else 0, -(-500 // value) if value else 0
    back5 = back10 = 0
    for kind in ((("1000", "500") if state.options.refund_first == "1000" else ("500", "1000")) if value else ()):
        if kind == "1000":
            back10 = min(thousands, cards // per_note)
            cards -= back10 * per_note
        else:
            back5 = min(fives, cards // per_coin)
            cards -= back5 * per_coin
    state = replace(state, fives=state.fives + back5, spent_fives=fives - back5, thousands=state.thousands + back10,
                    spent_thousands=thousands - back10, aside=(), deck=state.cards, round=state.round + 1,
                    phase=DRAW)
    events = events + [Event("round_over", {"round": state.round - 1, "back_500": back5, "back_1000": back10})]
    if not state.hundreds:
        return _finish(state, "lost", "time_ran_out", events)
    return state, events


def _finish(state: State, result: str, why: str, events: list[Event]) -> tuple[State, list[Event]]:
    state = replace(state, phase=OVER, result=result, why=why, card=None)
    return state, events + [Event("game_over", {"result": result, "why": why, "score": score(state)})]


def score(state: State) -> int | None:
    """For a won game: the yen not discarded plus the cards set aside."""
    return state.yen + len(state.aside) * state.options.card_value if state.result == "won" else None


# --- views ----------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    acting = state.phase in (FIX, MOVE)
    return {
        "game": NAME, "phase": state.phase,
        "players": [{"seat": 0, "name": state.name, "yen": state.yen, "turn": acting}],
        "turn": 0 if acting else None, "to_act": to_act(GAME.pending(state)),
        "crates": [list(c) for c in state.crates], "middle_crate": len(state.crates) - 1,
        "colours": list(state.colours), "card": state.card, "deck_left": len(state.deck),
        "aside": list(state.aside), "round": state.round, "rounds_left": state.hundreds,
        "coins": {"100": state.hundreds, "500": state.fives, "1000": state.thousands},
        "spent": {"500": state.spent_fives, "1000": state.spent_thousands},
        "home": [c for c in state.cards if state.crates and is_home(state, c)] if state.colours else [],
        "start_swaps": state.fixes, "result": state.result, "why": state.why, "score": score(state),
        "winners": [0] if state.result == "won" else [], "over": state.phase == OVER,
    }


def payouts(state: State) -> dict:
    return {"yen": [state.yen], "score": score(state), "result": state.result,
            "final": state.phase == OVER, "winners": [0] if state.result == "won" else []}


def _shift_info(state: State, move: Move) -> MoveInfo:
    return MoveInfo(cost=500, why="why.colour_sort.special", params={"card_value": state.options.card_value})


def _swap_info(state: State, move: Move) -> MoveInfo:
    return MoveInfo(cost=1000, why="why.colour_sort.special", params={"card_value": state.options.card_value})


def _playout_work(state: State) -> int:
    """About a TOKYO METRO seat-round per round left (nine cards each)."""
    return 2 * state.hundreds + state.fives + state.thousands


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(LEAVE, "the next colour in play (its card drawn from the colour cards)", outcomes=_colours_left,
              ends="when as many colours are in play as the option 'colours' says (or the table gave the layout)"),
        Phase(FILL, "the next drink drawn for the outer crates", outcomes=_drinks_left,
              ends="when the drinks of the colours in play stand in the outer crates"),
        Phase(FIX, lambda s: f"a swap that fixes a crate with more than {s.options.max_share} alike", acting=_solo,
              ends="when every outer crate keeps the start rule, or after fix_limit swaps"),
        Phase(DRAW, "the next card turned up from the deck", outcomes=_cards_left,
              ends="with a card whose drink is to move (a card whose drinks are home is set aside)"),
        Phase(MOVE, lambda s: f"a drink matching the {s.card} card moved to the same slot of another crate",
              acting=_solo, ends="with the drink moved (or a pass when none can move)"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("colour", _colour, f"{RULE}: VORBEREITUNG", phases=(LEAVE,), chance=True),
        Kind("fill", _fill, f"{RULE}: VORBEREITUNG", phases=(FILL,), chance=True),
        Kind("fix", _fix, f"{RULE}: VORBEREITUNG", phases=(FIX,), listed=_fix_moves),
        Kind("draw", _draw, f"{RULE}: SPIELABLAUF", phases=(DRAW,), chance=True),
        Kind("move", _move, f"{RULE}: SPIELABLAUF", phases=(MOVE,), listed=_moves),
        Kind("pass", _pass, f"{RULE}: SPIELABLAUF", phases=(MOVE,), listed=_passes),
        Kind("shift", _shift, f"{RULE}: SONDERAKTIONEN", phases=(MOVE,), listed=_shifts, info=_shift_info),
        Kind("swap_two", _swap, f"{RULE}: SONDERAKTIONEN", phases=(MOVE,), compose=_swaps, info=_swap_info),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: (state.name,),
    redraw=nothing_hidden, playout_cost=_playout_work,  # the deck's order is chance's alone; the crates are open
    board_events=frozenset({"drink_drawn", "start_swap", "drink_moved", "shifted", "swapped_in_crate"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
