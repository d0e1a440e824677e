"""MELON SODA (rule book 002, the Akihabara pot game): a pot of drinks and yen.

Each player has a crate, six drinks (one of each colour) beside it as their supply,
and 1,000 yen. On your turn either add one supply drink or 100 yen to the pot in the
middle, or take the whole pot: keep its yen, throw all its drinks into the tower at
once and put what comes out in your crate (drinks that do not fit stand to the right
of it, useless), then start a new pot with a drink from your supply. The game ends at
once when all players but one have a full crate, when a player has neither yen nor
supply drinks, or when only one player still has supply drinks. Each crate scores its
distinct colours plus distinct shapes, times the player count, times 100 yen from the
bank; every empty crate slot and every drink outside the crate counts -100.

>>> s = setup({"names": ["A", "B", "C"], "start_player": 0})
>>> sorted(m.kind for m in legal_moves(s, 0))[:1], len(s.seats[0].supply)
(['add_drink'], 6)
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Literal, Mapping

from ...drinks import ALL_DRINKS, COLOURS, SHAPES, Drink
from ..declared import Declared, Kind, Phase, nothing_hidden
from ..engine import CHANCE, ChanceSpec, Event, IllegalMove, Move, MoveInfo, uniform
from ..options import Flag, GameOptions, Players, Whole
from ..tower import Tower
from .common import (AroundTheTable, arg, arg_drink, arg_drinks, awaited_drop, distinct_traits, seat_names, set_at,
                     sort_drinks, top)
from .tower_turns import config_start_player, drawn_start_player, start_player_outcomes, the_player, to_act

NAME = "melon_soda"
TITLE = "MELON SODA"
PLAYERS = (2, 3, 4, 5, 6)
RULE = "002 MELON SODA"

DEAL, START, TURN, DROP, PLACE, OVER = "deal", "start", "turn", "drop", "place", "over"
CRATE = 6


class Options(GameOptions):
    players: Players = 3
    start_yen: Whole = 1000
    coin: Whole = 100                # what "100 yen" to the pot is
    # "latin": the companion names each player's six drinks; "random": chance deals them
    deal: Literal["latin", "random"] = "latin"
    refill_with_yen: Flag = False    # True: after taking, the new pot may start with 100 yen instead of a drink
    spill_to: Literal["pot", "box"] = "pot"  # where a drink falling out on its own goes
    point: Whole = 100               # yen per scoring point
    penalty: Whole = 100             # per empty slot and per drink outside the crate


@dataclass(frozen=True)
class Seat:
    name: str
    yen: int
    supply: tuple[str, ...] = ()     # left of the crate: drinks to play
    crate: tuple[str, ...] = ()      # up to six; these score
    beside: tuple[str, ...] = ()     # right of the crate: came out with a full crate, never used


@dataclass(frozen=True)
class State(AroundTheTable):
    options: Options
    seats: tuple[Seat, ...]
    bank: int = 0
    phase: str = TURN
    player: int = 0                  # whose turn it is
    start_player: int = 0
    pot_yen: int = 0
    pot: tuple[str, ...] = ()        # drinks in the pot, in the order added
    tower: Tower = field(default_factory=Tower)
    box: frozenset[str] = frozenset()   # not dealt: out of the game
    thrown: tuple[str, ...] = ()     # the pot being thrown by the taker
    add: str | None = None           # what the taker starts the new pot with ("yen" or a drink)
    came_out: tuple[str, ...] = ()   # out of the taker's drop, waiting to be placed
    turns: int = 0
    last_take: Mapping[str, Any] | None = None
    final: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()


def latin_deal(p: int) -> tuple[str, ...]:
    """Seat ``p`` takes, for the k-th colour, the (k + p)-th shape: one of every colour and shape."""
    return tuple(Drink(c, SHAPES[(k + p) % 6]).id for k, c in enumerate(COLOURS))


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    everything = frozenset(d.id for d in ALL_DRINKS)
    if opts.deal == "latin":
        seats = tuple(Seat(n, opts.start_yen, supply=latin_deal(p)) for p, n in enumerate(names))
        dealt = {d for s in seats for d in s.supply}
        state = State(opts, seats, phase=START, box=everything - dealt)
    else:
        state = State(opts, tuple(Seat(n, opts.start_yen) for n in names), phase=DEAL, box=everything)
    first = config_start_player(config, opts.players)
    if first is not None:  # the table chose the start player already
        state = replace(state, start_player=first, player=first)
        if state.phase == START:
            state = replace(state, phase=TURN)
    return state


# --- who acts -------------------------------------------------------------------------------

def _deal_slot(state: State) -> tuple[int, int]:
    dealt = sum(len(s.supply) for s in state.seats)
    return dealt // 6, dealt % 6


def _can_take(state: State, p: int) -> bool:
    seat = state.seats[p]
    if not (state.pot or state.pot_yen):
        return False
    return bool(seat.supply) or (state.options.refill_with_yen and seat.yen + state.pot_yen >= state.options.coin)


def _drink_adds(state: State, seat: int) -> list[Move]:
    return [Move("add_drink", seat, {"drink": d}) for d in state.seats[seat].supply]


def _yen_adds(state: State, seat: int) -> list[Move]:
    return [Move("add_yen", seat, {})] if state.seats[seat].yen >= state.options.coin else []


def _takes(state: State, seat: int) -> list[Move]:
    if not _can_take(state, seat):
        return []
    o, yen = state.options, state.seats[seat].yen
    moves = [Move("take", seat, {"add": d}) for d in state.seats[seat].supply]
    if o.refill_with_yen and yen + state.pot_yen >= o.coin:
        moves.append(Move("take", seat, {"add": "yen"}))
    return moves


def _crate_picks(state: State, seat: int) -> list[Move]:
    return [Move("to_crate", seat, {"drink": d}) for d in state.came_out]


def _deals_left(state: State) -> ChanceSpec:
    _, k = _deal_slot(state)
    colour = COLOURS[k]
    left = [d for d in sort_drinks(state.box) if d.startswith(colour.value + "-")]
    return uniform(Move("deal", CHANCE, {"drink": d}) for d in left)


def _throw_out(state: State) -> ChanceSpec:
    return awaited_drop(state.thrown, state.tower)


# --- applying moves ---------------------------------------------------------------------------

def _deal(state: State, move: Move) -> tuple[State, list[Event]]:
    d = arg_drink(move)
    p, k = _deal_slot(state)
    if d not in state.box or not d.startswith(COLOURS[k].value + "-"):
        raise IllegalMove(f"{d} cannot be dealt now: seat {p} takes a {COLOURS[k].value} drink not dealt yet")
    seats = set_at(state.seats, p, supply=state.seats[p].supply + (d,))
    state = replace(state, seats=seats, box=state.box - {d})
    if _deal_slot(state)[0] >= state.n:
        state = replace(state, phase=START)
    return state, [Event("dealt", {"seat": p, "drink": d})]


def _start_player(state: State, move: Move) -> tuple[State, list[Event]]:
    p = drawn_start_player(state, move)
    return replace(state, phase=TURN, start_player=p, player=p), [Event("start_player", {"seat": p})]


def _supply_drink(state: State, move: Move, name: str = "drink") -> str:
    d = arg_drink(move, name)
    if d not in state.seats[move.player].supply:
        raise IllegalMove(f"{d} is not in your supply; you have {', '.join(state.seats[move.player].supply) or 'none'}")
    return d


def _add_drink(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    d = _supply_drink(state, move)
    seats = set_at(state.seats, p, supply=tuple(x for x in state.seats[p].supply if x != d))
    state = replace(state, seats=seats, pot=state.pot + (d,))
    return _end_turn(state, [Event("added", {"seat": p, "drink": d})])


def _add_yen(state: State, move: Move) -> tuple[State, list[Event]]:
    p, coin = move.player, state.options.coin
    if state.seats[p].yen < coin:
        raise IllegalMove(f"adding to the pot costs {coin} yen and you have {state.seats[p].yen}")
    state = replace(state, seats=set_at(state.seats, p, yen=state.seats[p].yen - coin), pot_yen=state.pot_yen + coin)
    return _end_turn(state, [Event("added", {"seat": p, "yen": coin})])


def _take(state: State, move: Move) -> tuple[State, list[Event]]:
    p, o = move.player, state.options
    if not (state.pot or state.pot_yen):
        raise IllegalMove("the pot is empty: there is nothing to take")
    add = arg(move, "add")
    if add == "yen":
        if not o.refill_with_yen:
            raise IllegalMove("after taking the pot you must start the new one with a drink from your supply")
        if state.seats[p].yen + state.pot_yen < o.coin:
            raise IllegalMove(f"you need {o.coin} yen to start the new pot")
    else:
        if not state.seats[p].supply:
            raise IllegalMove("you may take the pot only with a drink left in your supply to start the new pot")
        add = _supply_drink(state, move, "add")
    seat = state.seats[p]
    seats = set_at(state.seats, p, yen=seat.yen + state.pot_yen)
    events = [Event("took_pot", {"seat": p, "yen": state.pot_yen, "drinks": list(state.pot)})]
    state = replace(state, seats=seats, pot_yen=0, pot=(), thrown=state.pot, add=add,
                    last_take={"seat": p, "yen": state.pot_yen, "thrown": list(state.pot)})
    if state.thrown:
        return replace(state, phase=DROP), events
    return _refill(state, events)


def _drop(state: State, move: Move) -> tuple[State, list[Event]]:
    out = arg_drinks(move, "out")
    tower, drop = state.tower.drop(state.thrown, out)
    state = replace(state, tower=tower, thrown=(), last_take={**state.last_take, "drop": drop.to_json()})
    events = [Event("drop", drop.to_json())]
    p = state.player
    free = CRATE - len(state.seats[p].crate)
    if len(drop.out) <= free:
        seats = set_at(state.seats, p, crate=state.seats[p].crate + tuple(drop.out))
        return _refill(replace(state, seats=seats), events)
    if free == 0:
        seats = set_at(state.seats, p, beside=state.seats[p].beside + tuple(drop.out))
        return _refill(replace(state, seats=seats), events + [Event("beside", {"seat": p, "drinks": list(drop.out)})])
    return replace(state, phase=PLACE, came_out=tuple(drop.out)), events


def _to_crate(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    d = arg_drink(move)
    if d not in state.came_out:
        raise IllegalMove(f"{d} did not just come out of the tower; choose from {', '.join(state.came_out)}")
    seat = state.seats[p]
    left = tuple(x for x in state.came_out if x != d)
    seat = replace(seat, crate=seat.crate + (d,))
    events = [Event("to_crate", {"seat": p, "drink": d})]
    if len(seat.crate) < CRATE:
        return replace(state, seats=set_at(state.seats, p, crate=seat.crate), came_out=left), events
    seat = replace(seat, beside=seat.beside + left)
    state = replace(state, seats=set_at(state.seats, p, crate=seat.crate, beside=seat.beside), came_out=())
    return _refill(state, events + [Event("beside", {"seat": p, "drinks": list(left)})])


def _refill(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    p, seat = state.player, state.seats[state.player]
    if state.add == "yen":
        coin = state.options.coin
        state = replace(state, seats=set_at(state.seats, p, yen=seat.yen - coin),
                        pot_yen=state.pot_yen + coin)
        event = Event("added", {"seat": p, "yen": coin})
    else:
        state = replace(state, seats=set_at(state.seats, p, supply=tuple(x for x in seat.supply if x != state.add)),
                        pot=state.pot + (state.add,))  # after any drink that spilled meanwhile
        event = Event("added", {"seat": p, "drink": state.add})
    return _end_turn(replace(state, add=None, phase=TURN), events + [event])


def end_reason(state: State) -> str | None:
    """Which of the three end conditions holds, if any."""
    n = state.n
    if sum(len(s.crate) >= CRATE for s in state.seats) >= n - 1:
        return "crates_full"
    if any(s.yen < state.options.coin and not s.supply for s in state.seats):
        return "broke"
    if sum(bool(s.supply) for s in state.seats) <= 1:
        return "supplies_empty"
    return None


def _end_turn(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    state = replace(state, turns=state.turns + 1, phase=TURN)
    reason = end_reason(state)
    if reason:
        return _finish(state, reason, events)
    return replace(state, player=(state.player + 1) % state.n), events


def score(state: State, p: int) -> dict:
    o, seat = state.options, state.seats[p]
    colours, shapes = distinct_traits(seat.crate)
    bonus = (colours + shapes) * state.n * o.point
    empty = CRATE - len(seat.crate)
    outside = len(seat.beside) + len(seat.supply)
    penalty = (empty + outside) * o.penalty
    return {"colours": colours, "shapes": shapes, "bonus": bonus, "empty_slots": empty,
            "outside": outside, "penalty": penalty}


def _finish(state: State, reason: str, events: list[Event]) -> tuple[State, list[Event]]:
    scores = [score(state, p) for p in range(state.n)]
    seats = tuple(replace(s, yen=s.yen + scores[p]["bonus"]) for p, s in enumerate(state.seats))
    totals = [seats[p].yen - scores[p]["penalty"] for p in range(state.n)]
    for p, sc in enumerate(scores):
        sc["total"] = totals[p]
    winners = top(totals)
    final = {"reason": reason, "scores": scores, "totals": totals}
    state = replace(state, seats=seats, bank=state.bank - sum(s["bonus"] for s in scores), phase=OVER,
                    final=final, winners=winners)
    return state, events + [Event("game_over", {"winners": list(winners), **final})]


def _spill(state: State, move: Move) -> tuple[State, list[Event]]:
    out = arg_drinks(move, "out")
    tower = state.tower.spill(out)
    if state.options.spill_to == "pot":
        state = replace(state, tower=tower, pot=state.pot + tuple(out))
    else:
        state = replace(state, tower=tower, box=state.box | set(out))
    return state, [Event("spill", {"out": list(out), "to": state.options.spill_to})]


# --- views ----------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    players = [{
        "seat": p, "name": s.name, "yen": s.yen, "supply": list(s.supply), "crate": list(s.crate),
        "beside": list(s.beside), "crate_free": CRATE - len(s.crate),
        "turn": p == state.player and state.phase in (TURN, PLACE),
        "start": p == state.start_player,
        "score": state.final["scores"][p] if state.final else score(state, p),
    } for p, s in enumerate(state.seats)]
    return {
        "game": NAME, "phase": state.phase, "players": players, "bank": state.bank,
        "turn": state.player if state.phase in (TURN, PLACE, DROP) else None,
        "to_act": to_act(GAME.pending(state)),
        "pot": {"yen": state.pot_yen, "drinks": list(state.pot)},
        "tower": {"stuck": sort_drinks(state.tower.inside)},
        "thrown": list(state.thrown), "came_out": list(state.came_out),
        "box": sort_drinks(state.box), "last_take": dict(state.last_take) if state.last_take else None,
        "final": dict(state.final) if state.final else None,
        "winners": list(state.winners), "over": state.phase == OVER,
    }


def payouts(state: State) -> dict:
    """Yen now; the score if the game ended now (crate bonus minus penalties)."""
    scores = [state.final["scores"][p] if state.final else score(state, p) for p in range(state.n)]
    projected = (state.final["totals"] if state.final else
                 [s.yen + scores[p]["bonus"] - scores[p]["penalty"] for p, s in enumerate(state.seats)])
    return {"yen": [s.yen for s in state.seats], "projected": projected, "scores": scores,
            "final": state.phase == OVER, "winners": list(state.winners)}


def _yen_info(state: State, move: Move) -> MoveInfo:
    return MoveInfo(cost=state.options.coin, why="why.melon_soda.addYen")


def _take_info(state: State, move: Move) -> MoveInfo:
    with_yen = move.args.get("add") == "yen"
    return MoveInfo(cost=state.options.coin if with_yen else 0, pays_up_to=state.pot_yen,
                    why="why.melon_soda.takeWithYen" if with_yen else "why.melon_soda.take")


def _waiting_for(what: str) -> Callable[[State], str]:
    return lambda state: f"{state.seats[state.player].name} to {what}"


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(DEAL, "the starting drinks to be dealt", outcomes=_deals_left,
              ends="when every player holds one drink of each colour"),
        Phase(START, "the start player to be drawn", outcomes=start_player_outcomes, ends="with the start player"),
        Phase(TURN, _waiting_for("add to the pot or take it"), acting=the_player,
              ends="with a drink or 100 yen added, or the pot taken (its drinks thrown)"),
        Phase(DROP, "the drinks that came out of the tower", outcomes=_throw_out,
              ends="when they fit in the taker's crate, or go beside a full one"),
        Phase(PLACE, _waiting_for("choose the drinks for the crate"), acting=the_player,
              ends="when the crate is full"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("deal", _deal, f"{RULE}: VORBEREITUNG", phases=(DEAL,), chance=True),
        Kind("start_player", _start_player, f"{RULE}: VORBEREITUNG", phases=(START,), chance=True),
        Kind("add_drink", _add_drink, f"{RULE}: SPIELABLAUF", phases=(TURN,), listed=_drink_adds),
        Kind("add_yen", _add_yen, f"{RULE}: SPIELABLAUF", phases=(TURN,), listed=_yen_adds, info=_yen_info),
        Kind("take", _take, f"{RULE}: DEN POT NEHMEN", phases=(TURN,), listed=_takes, info=_take_info),
        Kind("drop", _drop, f"{RULE}: DEN POT NEHMEN", phases=(DROP,), chance=True),
        Kind("to_crate", _to_crate, f"{RULE}: DEN POT NEHMEN", phases=(PLACE,), listed=_crate_picks),
        Kind("spill", _spill, f"{RULE}: DEN POT NEHMEN", chance=True, anytime=True),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: [s.name for s in state.seats],
    # Everything that decides the result lies open on the table; a playout costs about a TOKYO METRO
    # seat-round per player (the estimate budget's unit).
    redraw=nothing_hidden, playout_cost=lambda state: state.n,
    # what a person copies onto the real table (drinks into the tower or a crate; cards taken)
    board_events=frozenset({"added", "to_crate", "beside", "took_pot"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
