"""BOTTLE BONUS (rule book 002): JIDOHANBAIKI's drinks as one-shot powers in a game of TOKYO JUTAKU.

TOKYO JUTAKU (a building game of its own, not in our rule books) is played at the table as usual;
the service keeps BOTTLE BONUS's part. After each round, the player who finished their building
that round (entered by the table) draws as many drinks from the box as they have opponents and
throws them all into the tower at once; every other player may take one drink that came out.
A drink held is a power, spent once, by its colour: black turns one's plot card over before
building, white lays one piece first, mint makes everyone else put back the piece in hand, red
moves two pieces at once for a round, purple moves to any free plot card; blue is a bet before a
round: win that round and the drink stays beside the plot cards for +200 at the end, lose it and
it is gone. At the end the table enters each player's TOKYO JUTAKU score; the blue drinks kept are
added.

The powers act in TOKYO JUTAKU, on the table: the service records a power spent and what it means,
and settles the blue bets when the round's finisher is entered.

>>> s = setup({"names": ["A", "B", "C"]})
>>> s, _ = apply(s, Move("finished", CHANCE, {"seat": 1}))
>>> s.phase, s.drawer
('draw', 1)
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from ...drinks import DRINK_IDS
from ..declared import Declared, Kind, Phase
from ..engine import CHANCE, ChanceSpec, Event, IllegalMove, Move, Pending, Typed, uniform
from ..options import GameOptions, WholeIn
from ..tower import Tower
from .common import (arg_drink, arg_drinks, awaited_drop, seat_in, seat_names, set_at, sort_drinks, spill_to_rethrow,
                     top)
from .tower_turns import to_act

NAME = "bottle_bonus"
TITLE = "BOTTLE BONUS"
PLAYERS = (2, 3, 4)
RULE = "002 BOTTLE BONUS"

BUILD, DRAW, DROP, TAKE, OVER = "build", "draw", "drop", "take", "over"
MAX_SCORE = 1_000_000
POWERS = {"black": "turn_plot", "white": "lay_piece", "mint": "put_back", "blue": "bet_round",
          "red": "two_pieces", "purple": "move_anywhere"}


class Options(GameOptions):
    players: WholeIn(2, 4) = 3
    blue_bonus: WholeIn(0, 10_000) = 200    # a blue bet won, at the end
    max_rounds: WholeIn(0, 100) = 10        # a bound: the game ends after this many rounds (0: when the table says)


@dataclass(frozen=True)
class Seat:
    name: str
    held: tuple[str, ...] = ()       # drinks taken, powers not spent yet
    bet: str | None = None           # a blue drink spent on the coming round
    kept: tuple[str, ...] = ()       # blue bets won: +blue_bonus each at the end
    score: int | None = None         # TOKYO JUTAKU's score, entered at the end


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[Seat, ...]
    phase: str = BUILD
    round: int = 1
    drawer: int | None = None                 # the round's finisher, throwing now
    drawn: tuple[str, ...] = ()               # drinks drawn for the throw
    out: tuple[str, ...] = ()                 # what came out, still to be taken
    takers: tuple[int, ...] = ()              # seats still to take (or not)
    tower: Tower = Tower()
    rethrow: frozenset[str] = frozenset()     # stuck drinks that fell out on their own
    last: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.seats)

    def box(self) -> tuple[str, ...]:
        """Drinks in the box: neither held, bet, kept, drawn, out, nor in the tower."""
        away = {d for s in self.seats for d in (*s.held, *s.kept, *((s.bet,) if s.bet else ()))}
        away |= set(self.drawn) | set(self.out) | set(self.tower.inside) | set(self.rethrow)
        return tuple(d for d in DRINK_IDS if d not in away)


def start(opts: Options, config: Mapping[str, Any]) -> State:
    return State(opts, tuple(Seat(name) for name in seat_names(config, opts.players)))


def colour(drink: str) -> str:
    return drink.split("-", 1)[0]


# --- who acts ---------------------------------------------------------------------------------

def _takers(state: State) -> list[Pending]:
    return [Pending(state.takers[0])] if state.takers else []


def _waiting_take(state: State) -> str:
    name = state.seats[state.takers[0]].name if state.takers else ""
    return f"{name} to take one drink that came out, or none"


# --- what chance (the table) brings -------------------------------------------------------------

def _finishers(state: State) -> ChanceSpec:
    """Who finished the round (the seats after the last finisher first). The table is offered the
    end of TOKYO JUTAKU too, plain or with each player's TOKYO JUTAKU yen typed in; the simulated
    table and playouts never choose it (the game then ends after ``max_rounds``)."""
    last = state.last.get("finished", -1) if state.last else -1
    finishers = [Move("finished", CHANCE, {"seat": (last + k) % state.n}) for k in range(1, state.n + 1)]
    return replace(uniform(finishers), offer=tuple(finishers) + (Move("end", CHANCE, {}),),
                   typed=(Typed("end", "scores", 0, MAX_SCORE, per_seat=True),))


def _draws(state: State) -> ChanceSpec:
    return uniform(Move("draw", CHANCE, {"drink": d}) for d in state.box())


def _drop(state: State) -> ChanceSpec:
    return awaited_drop(state.drawn + tuple(sort_drinks(state.rethrow)), state.tower)


def _finished(state: State, move: Move) -> tuple[State, list[Event]]:
    """The round's finisher, entered by the table; blue bets are settled."""
    p = seat_in(move, range(state.n))
    seats, settled = [], []
    for q, s in enumerate(state.seats):
        if s.bet:
            won = q == p
            settled.append({"seat": q, "won": won})
            s = replace(s, bet=None, kept=s.kept + ((s.bet,) if won else ()))
        seats.append(s)
    state = replace(state, seats=tuple(seats), drawer=p, phase=DRAW, drawn=(), last={"finished": p, "bets": settled})
    events = [Event("round_finished", {"round": state.round, "seat": p, "bets": settled})]
    if not state.box() or state.n - 1 == 0:
        return _next_round(state, events)
    return state, events


def _draw(state: State, move: Move) -> tuple[State, list[Event]]:
    d = arg_drink(move)
    if d not in state.box():
        raise IllegalMove(f"{d} is not in the box; enter a drink drawn from the box", move)
    state = replace(state, drawn=state.drawn + (d,))
    events = [Event("drawn", {"seat": state.drawer, "drink": d})]
    if len(state.drawn) >= state.n - 1 or not state.box():
        state = replace(state, phase=DROP)
    return state, events


def _dropped(state: State, move: Move) -> tuple[State, list[Event]]:
    out = arg_drinks(move, "out")
    tower, drop = state.tower.drop(state.drawn + tuple(sort_drinks(state.rethrow)), out)
    takers = tuple((state.drawer + k) % state.n for k in range(1, state.n))
    state = replace(state, tower=tower, rethrow=frozenset(), drawn=(), out=tuple(sort_drinks(out)), takers=takers,
                    phase=TAKE, last={"drop": drop.to_json()})
    events = [Event("drop", drop.to_json())]
    if not out:
        return _next_round(state, events)
    return state, events


def _takes(state: State, seat: int) -> list[Move]:
    if not state.takers or state.takers[0] != seat:
        return []
    return [Move("take", seat, {"drink": d}) for d in state.out] + [Move("take", seat, {"drink": None})]


def _take(state: State, move: Move) -> tuple[State, list[Event]]:
    p, d = move.player, move.args.get("drink")
    if d is not None and d not in state.out:
        raise IllegalMove(f"{d} is not among the drinks that came out; take one of those, or none", move)
    seats = state.seats if d is None else set_at(state.seats, p, held=tuple(sort_drinks(state.seats[p].held + (d,))))
    out = tuple(x for x in state.out if x != d)
    state = replace(state, seats=seats, out=out, takers=state.takers[1:])
    events = [Event("took", {"seat": p, "drink": d})]
    if not state.takers or not out:
        return _next_round(replace(state, takers=()), events)
    return state, events


def _next_round(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """What nobody took goes back in the box; the next round of TOKYO JUTAKU is built (or, after
    the rounds the table set, the game ends with the bonuses)."""
    state = replace(state, phase=BUILD, out=(), takers=(), drawer=None, round=state.round + 1)
    if state.options.max_rounds and state.round > state.options.max_rounds:
        ended, more = _end(state, Move("end", CHANCE, {}))
        return ended, events + more
    return state, events


def _spends(state: State, seat: int) -> list[Move]:
    if state.phase == OVER:
        return []
    s = state.seats[seat]
    return [Move("spend", seat, {"drink": d}) for d in s.held
            if colour(d) != "blue" or (state.phase == BUILD and s.bet is None)]


def _spend(state: State, move: Move) -> tuple[State, list[Event]]:
    p, d = move.player, arg_drink(move)
    s = state.seats[p]
    if d not in s.held:
        raise IllegalMove(f"you hold no {d}; spend one of the drinks you took", move)
    held = tuple(x for x in s.held if x != d)
    if colour(d) == "blue":
        if state.phase != BUILD or s.bet is not None:
            raise IllegalMove("a blue drink is a bet on the coming round: spend it before the round is finished, "
                              "one at a time", move)
        seats = set_at(state.seats, p, held=held, bet=d)
    else:
        seats = set_at(state.seats, p, held=held)
    return replace(state, seats=seats), [Event("spent", {"seat": p, "drink": d, "power": POWERS[colour(d)]})]


def _end(state: State, move: Move) -> tuple[State, list[Event]]:
    """TOKYO JUTAKU is over. With ``scores`` (each player's TOKYO JUTAKU yen, seat order) the
    service adds the blue drinks kept and names the winners; without, the bonuses alone stand,
    to be added on TOKYO JUTAKU's score sheet."""
    scores = move.args.get("scores")
    if scores is not None:
        if not isinstance(scores, (list, tuple)) or len(scores) != state.n or not all(
                isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= MAX_SCORE for x in scores):
            n, most = state.n, MAX_SCORE
            raise IllegalMove(f"'scores' lists each player's TOKYO JUTAKU yen in seat order: {n} whole numbers "
                              f"from 0 to {most}", move)
        state = replace(state, seats=tuple(replace(s, score=x) for s, x in zip(state.seats, scores)))
    state = replace(state, phase=OVER)
    totals = finals(state)
    state = replace(state, winners=top(totals))
    return state, [Event("game_over", {"winners": list(state.winners), "yen": totals,
                                       "with_scores": scores is not None})]


def finals(state: State) -> list[int]:
    bonus = state.options.blue_bonus
    return [(s.score or 0) + bonus * len(s.kept) for s in state.seats]


# --- views ------------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    players = [{"seat": p, "name": s.name, "held": list(s.held), "bet": s.bet, "kept": list(s.kept),
                "bonus": state.options.blue_bonus * len(s.kept), "score": s.score,
                "turn": bool(state.takers) and state.takers[0] == p} for p, s in enumerate(state.seats)]
    return {
        "game": NAME, "phase": state.phase, "round": state.round, "players": players,
        "to_act": to_act(GAME.pending(state)),
        "drawer": state.drawer, "drawn": list(state.drawn), "out": list(state.out),
        "stuck": sorted(state.tower.inside), "box": len(state.box()),
        "powers": [{"colour": c, "power": p} for c, p in POWERS.items()], "last": dict(state.last) if state.last else None,
        "winners": list(state.winners), "over": state.phase == OVER,
        "final": {"yen": finals(state)} if state.phase == OVER else None,
    }


def payouts(state: State) -> dict:
    return {"yen": finals(state), "final": state.phase == OVER, "winners": list(state.winners)}


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(BUILD, "the round's finisher in TOKYO JUTAKU (or the final scores)", outcomes=_finishers,
              ends="with the finisher: the drinks are drawn"),
        Phase(DRAW, "the next drink drawn from the box", outcomes=_draws,
              ends="when one drink per opponent is drawn: they are thrown"),
        Phase(DROP, "the drinks that came out of the tower", outcomes=_drop, ends="with the drop: the others take"),
        Phase(TAKE, _waiting_take, acting=_takers, ends="when each other player took one or none"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("finished", _finished, f"{RULE}: (after each round)", phases=(BUILD,), chance=True),
        Kind("end", _end, f"{RULE}: BLAU (TOKYO JUTAKU's end: the blue drinks kept)", phases=(BUILD,), chance=True),
        Kind("draw", _draw, f"{RULE}: (after each round)", phases=(DRAW,), chance=True),
        Kind("drop", _dropped, f"{RULE}: (after each round)", phases=(DROP,), chance=True),
        Kind("take", _take, f"{RULE}: (after each round)", phases=(TAKE,), listed=_takes),
        Kind("spend", _spend, f"{RULE}: SCHWARZ, WEISS, MINT, BLAU, ROT, LILA", listed=_spends, anytime=True),
        Kind("spill", spill_to_rethrow, f"{RULE}: (a stuck drink falls out)", chance=True, anytime=True),
    ),
    # no estimates: TOKYO JUTAKU's score is not the service's to play out
    view_of=view, payouts_of=payouts, seat_names=lambda state: [s.name for s in state.seats],
    board_events=frozenset({"drawn", "took"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
