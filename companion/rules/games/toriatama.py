"""TORIATAMA (rule book 002): a memory game of closed fists.

Each player has a crate; the drinks stand in the middle. A drink travels from the middle into a
player's right fist, then into their left fist, then into their crate. In turn each player takes a
drink from the middle into their right fist and says its colour and shape aloud; from the second
round on, a player first moves what their fists hold one step on (right to left, left to the
crate). Nobody may look into their own fists. After a take, any other player who remembers a
drink in one of their fists that shares the colour or the shape of the drink just taken may claim
it ("I have a red one") and open that fist: right, and the taker puts the new drink back in the
middle, and the claimer may move the opened drink one step on; wrong, and the opened fist's drink
goes back to the middle. As soon as one crate holds six drinks the game ends: fists are emptied
into the crates (left fist first; what does not fit goes back to the middle) and each player
scores a point per different colour and per different shape in their crate.

The service knows every fist, as the table heard each drink named, but shows no one what a closed
fist holds, its owner included (option ``show_fists`` to practise): a claim is made from the
claimer's phone and the opened fist shows to all.

>>> s = setup({"names": ["A", "B", "C"]})
>>> s, _ = apply(s, Move("take", 0, {"drink": "red-tall_can"}))
>>> view(s, 0)["players"][0]["right_fist"], sorted({m.kind for m in legal_moves(s, 1)})
('held', ['take'])
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from ...drinks import DRINK_IDS
from ..declared import Declared, Kind, Phase
from ..engine import Event, IllegalMove, Move, Pending
from ..options import Flag, GameOptions, Players, Whole, WholeIn
from .common import arg_drink, arg_text, distinct_traits, seat_names, set_at, sort_drinks, top, traits
from .tower_turns import to_act

NAME = "toriatama"
TITLE = "TORIATAMA"
PLAYERS = (2, 3, 4, 5, 6)
RULE = "002 TORIATAMA"

PLAY, ADVANCE, OVER = "play", "advance", "over"
CRATE = 6
HANDS = ("right", "left")


class Options(GameOptions):
    players: Players = 3
    first_player: WholeIn(0, 5) = 0    # the book: who last listened to a bird's call
    show_fists: Flag = False           # practice: every screen shows what the fists hold
    max_rounds: Whole = 60             # a bound so that a game always ends (0: none)


@dataclass(frozen=True)
class Seat:
    name: str
    right: str | None = None
    left: str | None = None
    crate: tuple[str, ...] = ()

    def hand(self, which: str) -> str | None:
        return self.right if which == "right" else self.left


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[Seat, ...]
    phase: str = PLAY
    player: int = 0                           # whose take comes next
    turns: int = 0                            # takes so far
    taken: tuple[int, str] | None = None      # the last take (seat, drink) while claims are open
    claimed: tuple[int, ...] = ()             # seats that claimed on the last take
    advancing: tuple[int, str] | None = None  # a right claimer (seat, hand) choosing to move the drink on
    last: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def middle(self) -> tuple[str, ...]:
        out = {d for s in self.seats for d in (s.right, s.left, *s.crate) if d}
        return tuple(d for d in DRINK_IDS if d not in out)


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    if opts.first_player >= opts.players:
        raise IllegalMove(f"option first_player must be a seat from 0 to {opts.players - 1}")
    return State(opts, tuple(Seat(name) for name in names), player=opts.first_player)


def points(crate: tuple[str, ...]) -> int:
    """A point per different colour and per different shape (WERTUNG)."""
    colours, shapes = distinct_traits(crate)
    return colours + shapes


# --- who acts ---------------------------------------------------------------------------------

def may_claim(state: State, seat: int) -> bool:
    """Whether ``seat`` may claim on the last take: another seat, with a drink in a fist, not
    claimed on it yet, while the take stands."""
    if state.taken is None or seat == state.taken[0] or seat in state.claimed:
        return False
    s = state.seats[seat]
    return s.right is not None or s.left is not None


def _acting(state: State) -> list[Pending]:
    return [Pending(state.player)] + [Pending(p) for p in range(state.n) if p != state.player and may_claim(state, p)]


def _advancer(state: State) -> list[Pending]:
    return [Pending(state.advancing[0])]


def _waiting(state: State) -> str:
    name = state.seats[state.player].name
    return f"{name} to take a drink (the others may claim)"


# --- the moves --------------------------------------------------------------------------------

def _takes(state: State, seat: int) -> list[Move]:
    if seat != state.player:
        return []
    # with the middle empty the turn only moves the fists on
    return [Move("take", seat, {"drink": d}) for d in state.middle] or [Move("take", seat, {"drink": None})]


def _shifted(seat: Seat) -> Seat:
    """A turn's start from the second round on: left fist into the crate, right into left."""
    crate = seat.crate + ((seat.left,) if seat.left else ())
    return replace(seat, right=None, left=seat.right, crate=crate)


def _take(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    if p != state.player:
        name = state.seats[state.player].name
        raise IllegalMove(f"it is {name}'s turn to take a drink; you may only claim", move)
    d = arg_drink(move) if state.middle or move.args.get("drink") is not None else None
    events = []
    seat = state.seats[p]
    if state.turns >= state.n:        # from the second round on the fists move first
        seat = _shifted(seat)
        events.append(Event("moved_on", {"seat": p, "into_crate": len(seat.crate) - len(state.seats[p].crate)}))
        state = replace(state, seats=set_at(state.seats, p, right=seat.right, left=seat.left, crate=seat.crate))
        if len(seat.crate) >= CRATE:
            return _finish(state, events)
    if d is not None and d not in state.middle:
        raise IllegalMove(f"{d} is not in the middle; take one of the drinks standing there", move)
    state = replace(state, seats=set_at(state.seats, p, right=d), taken=(p, d) if d else None, claimed=(),
                    turns=state.turns + 1, player=(p + 1) % state.n, last={"seat": p, "took": d})
    events.append(Event("took", {"seat": p, "drink": d}))
    o = state.options
    if o.max_rounds and state.turns >= o.max_rounds * state.n:
        return _finish(state, events)
    return state, events


def _claims(state: State, seat: int) -> list[Move]:
    if not may_claim(state, seat):
        return []
    s, new = state.seats[seat], state.taken[1]
    return [Move("claim", seat, {"hand": h, "trait": t}) for h in HANDS if s.hand(h) for t in traits(new)]


def _claim(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    if not may_claim(state, p):
        raise IllegalMove("there is no take to claim on now (or you claimed on it, or took it, or hold nothing)", move)
    hand = arg_text(move, "hand", HANDS)
    taker, new = state.taken
    trait = arg_text(move, "trait", traits(new))
    held = state.seats[p].hand(hand)
    if held is None:
        raise IllegalMove(f"your {hand} fist is empty; open a fist that holds a drink", move)
    right = trait in traits(held)
    event = Event("claimed", {"seat": p, "hand": hand, "trait": trait, "drink": held, "correct": right,
                              "taker": taker, "taken": new})
    state = replace(state, claimed=state.claimed + (p,), last={"seat": p, "hand": hand, "trait": trait,
                                                                 "shown": held, "correct": right})
    if not right:   # the opened fist's drink goes back to the middle
        return replace(state, seats=set_at(state.seats, p, **{hand: None})), [event]
    # the taker's new drink goes back; the claimer may move the shown drink on
    seats = set_at(state.seats, taker, right=None)
    return replace(state, seats=seats, taken=None, phase=ADVANCE, advancing=(p, hand)), [event]


def _advances(state: State, seat: int) -> list[Move]:
    p, hand = state.advancing
    blocked = hand == "right" and state.seats[p].left is not None
    return ([] if blocked else [Move("advance", seat, {"on": True})]) + [Move("advance", seat, {"on": False})]


def _advance(state: State, move: Move) -> tuple[State, list[Event]]:
    p, hand = state.advancing
    on = move.args.get("on")
    if not isinstance(on, bool):
        raise IllegalMove("'on' is true (move the shown drink one step on) or false (leave it)", move)
    state = replace(state, phase=PLAY, advancing=None)
    if not on:
        return state, [Event("left_in_fist", {"seat": p, "hand": hand})]
    s = state.seats[p]
    d = s.hand(hand)
    if hand == "right":
        if s.left is not None:
            raise IllegalMove("your left fist is full: the drink cannot move on; leave it", move)
        seat = replace(s, right=None, left=d)
    else:
        seat = replace(s, left=None, crate=s.crate + (d,))
    state = replace(state, seats=set_at(state.seats, p, right=seat.right, left=seat.left, crate=seat.crate))
    events = [Event("moved_on", {"seat": p, "into_crate": int(hand == "left")})]
    if len(seat.crate) >= CRATE:
        return _finish(state, events)
    return state, events


def _finish(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Fists into crates, left first; what does not fit goes back to the middle; then the score."""
    seats = []
    for s in state.seats:
        crate = s.crate + tuple(d for d in (s.left, s.right) if d)
        seats.append(replace(s, right=None, left=None, crate=crate[:CRATE]))
    scores = [points(s.crate) for s in seats]
    best = top(scores)
    winners = top({p: len(seats[p].crate) for p in best})
    state = replace(state, seats=tuple(seats), phase=OVER, winners=winners, taken=None, advancing=None)
    return state, events + [Event("game_over", {"winners": list(winners), "points": scores})]


# --- views ------------------------------------------------------------------------------------

def _fist(state: State, d: str | None) -> str | None:
    """What a screen shows of a closed fist: nothing, "held", or (practice, or the end) the drink."""
    if d is None:
        return None
    return d if state.options.show_fists else "held"


def view(state: State, viewer: int | None) -> dict:
    players = [{"seat": p, "name": s.name, "right_fist": _fist(state, s.right), "left_fist": _fist(state, s.left),
                "crate": sort_drinks(s.crate), "points": points(s.crate),
                "turn": state.phase == PLAY and state.player == p} for p, s in enumerate(state.seats)]
    return {
        "game": NAME, "phase": state.phase, "players": players,
        "turn": state.player if state.phase == PLAY else None,
        "to_act": to_act(GAME.pending(state)),
        "middle": list(state.middle), "taken": {"seat": state.taken[0], "drink": state.taken[1]} if state.taken else None,
        "turns": state.turns, "first_round": state.turns < state.n,
        "last": dict(state.last) if state.last else None,
        "winners": list(state.winners), "over": state.phase == OVER,
        "final": {"points": [points(s.crate) for s in state.seats]} if state.phase == OVER else None,
    }


def payouts(state: State) -> dict:
    scores = [points(s.crate) for s in state.seats]
    return {"yen": [0] * state.n, "projected": scores, "points": scores,
            "final": state.phase == OVER, "winners": list(state.winners)}


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(PLAY, _waiting, acting=_acting, ends="when a crate holds six drinks"),
        Phase(ADVANCE, "the right claimer to move the shown drink on, or not", acting=_advancer,
              ends="with the choice: play goes on"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("take", _take, f"{RULE}: SPIELABLAUF", phases=(PLAY,), listed=_takes),
        Kind("claim", _claim, f"{RULE}: SPIELABLAUF", phases=(PLAY,), listed=_claims),
        Kind("advance", _advance, f"{RULE}: SPIELABLAUF", phases=(ADVANCE,), listed=_advances),
    ),
    # the engine knows the fists, but a playout that knows them would play a memory game perfectly:
    # no estimates (redraw left out)
    view_of=view, payouts_of=payouts, seat_names=lambda state: [s.name for s in state.seats],
    # what a person does at the real table: a drink taken into a fist, fists moved on, a fist emptied
    board_events=frozenset({"took", "moved_on", "claimed"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
