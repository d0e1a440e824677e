"""The vending-machine poker game (rule book 002; no title in our copy).

Everyone has a crate and coins: a 1,000 note, two 500s and three 100s. On your turn
either buy cans from the heap (100 for the three can shapes, 200 for the three bottle
shapes; as many as your crate has free slots) paying coins into the pot, which never
gives change (paying too much is allowed), and throw each bought can into the tower on
its own; or throw cans from your crate, one after another for as long as you like.
Whatever comes out is yours. At the end of a turn you may call (with six cans you call
anyway); everyone else then has one more turn, and the best five-can poker hand takes
the pot (poker_hands.py). The winner empties the crate (keeping a sixth can that is not
in the hand). A player who can neither buy nor throw is out; the last one left wins.
Coins and the pot: poker_coins.py. See docs/rules-notes.md.

>>> hand_rank(["red-tall_can", "blue-tall_can", "mint-tall_can", "white-tall_can", "black-tall_can"])[0]
'five_of_a_kind'
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal, Mapping

from ...drinks import ALL_DRINKS, Shape
from ..declared import Declared, Kind, Phase, nothing_hidden
from ..engine import Composite, Event, IllegalMove, Move, MoveInfo
from ..options import Flag, GameOptions, Players, Whole
from ..tower import Tower
from .common import arg_drink, arg_drinks, arg_list, clockwise, seat_names, set_at, sort_drinks, top
from .poker_coins import DENOMS, Coins, add_coins, coin_value, coins_json, handed_over, payments, split_pot
from .poker_hands import CATEGORIES, best_hand, hand_rank  # noqa: F401 - CATEGORIES: the hands' order, for callers
from .tower_turns import (config_start_player, drawn_start_player, spill, start_player_outcomes, the_player,
                          throw_drop, to_act)

NAME = "vending_poker"
TITLE = "Vending-machine poker"
PLAYERS = (2, 3, 4, 5, 6)
RULE = "002 Vending-machine poker"

START, TURN, DROP, MORE, DISCARD, CALL, OVER = "start", "turn", "drop", "more", "discard", "call", "over"
CRATE = 6
CANS = (Shape.STUBBY_CAN, Shape.SHORT_CAN, Shape.TALL_CAN)


class Options(GameOptions):
    # Rules version 1 refused a payment with a coin to spare.
    EARLIER = {1: {"overpay": False}}

    players: Players = 3
    notes_1000: Whole = 1            # each player's starting coins
    coins_500: Whole = 2
    coins_100: Whole = 3
    can_price: Whole = 100           # stubby, short and tall cans
    bottle_price: Whole = 200        # square, not-tallest and tallest bottles
    overpay: Flag = True             # a payment may hold a coin to spare (the pot never gives change)
    auto_call_at: Whole = 6          # a crate this full at the end of a turn calls (0: never)
    winner_keeps_sixth: Flag = True  # a sole winner with six cans keeps the one outside the hand
    spill_to: Literal["heap", "thrower"] = "heap"   # a can falling out on its own
    max_turns: Whole = 400           # a bound so that a game always ends (0: none)


# --- state ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Seat:
    name: str
    coins: Coins
    crate: tuple[str, ...] = ()
    out: bool = False                # eliminated
    thrown: tuple[str, ...] = ()     # crate cans thrown this turn (each once per turn)

    @property
    def yen(self) -> int:
        return coin_value(self.coins)


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[Seat, ...]
    phase: str = START
    player: int = 0
    round: int = 1
    start_player: int = 0
    pot: Coins = (0, 0, 0)
    heap: frozenset[str] = frozenset(d.id for d in ALL_DRINKS)
    tower: Tower = field(default_factory=Tower)
    flying: str | None = None        # the can being thrown now
    queue: tuple[str, ...] = ()      # bought cans still to be thrown, one at a time
    mode: str | None = None          # "buy" or "crate" while a turn's throws go on
    caller: int | None = None
    final_turns: tuple[int, ...] = ()   # seats still owed their last turn after a call
    turns: int = 0
    last_showdown: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()
    end: str | None = None

    @property
    def n(self) -> int:
        return len(self.seats)

    def active(self) -> list[int]:
        return [p for p, s in enumerate(self.seats) if not s.out]


_IS_CAN = {d.id: d.shape in CANS for d in ALL_DRINKS}


def price(state: State, drink_id: str) -> int:
    o = state.options
    return o.can_price if _IS_CAN[drink_id] else o.bottle_price


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    coins = (opts.notes_1000, opts.coins_500, opts.coins_100)
    state = State(opts, tuple(Seat(n, coins) for n in names))
    first = config_start_player(config, opts.players)
    if first is not None:
        state, _ = _begin_turn(replace(state, start_player=first), first, [])
    return state


# --- who acts and what they may do ---------------------------------------------------------------

def _name(state: State) -> str:
    return state.seats[state.player].name


def can_buy(state: State, p: int) -> bool:
    seat = state.seats[p]
    if len(seat.crate) >= CRATE or not state.heap:
        return False
    return seat.yen >= min(price(state, d) for d in state.heap)


def _buys(state: State, p: int) -> list[Move]:
    """One can at a time, with every payment that has no coin to spare (the bigger forms: ``_buy_picks``)."""
    if not can_buy(state, p):
        return []
    coins = state.seats[p].coins
    ways = {pr: [tuple(c for c, n in zip(DENOMS, way) for _ in range(n)) for way in payments(coins, pr)]
            for pr in {price(state, d) for d in state.heap}}
    return [Move("buy", p, {"drinks": (d,), "coins": paid}) for d in sort_drinks(state.heap)
            for paid in ways[price(state, d)]]


def _throws(state: State, p: int) -> list[Move]:
    seat = state.seats[p]
    return [Move("throw", p, {"drink": d}) for d in seat.crate if d not in seat.thrown]


def _buy_picks(state: State, seat: int) -> list[Composite]:
    """The bigger form of ``buy``: several cans from the heap at once (as many as the crate has
    free slots and the coins pay for), paid with coins (with a coin to spare only if ``overpay``)."""
    if not can_buy(state, seat):
        return []
    s = state.seats[seat]
    heap = sort_drinks(state.heap)
    cheapest = sorted(price(state, d) for d in heap)
    most = 0
    while most < min(CRATE - len(s.crate), len(heap)) and sum(cheapest[:most + 1]) <= s.yen:
        most += 1
    return [Composite("buy", {"arg": "drinks", "from": heap, "min": 1, "max": most},
                      coins={"arg": "coins", "have": coins_json(s.coins)},
                      each={d: price(state, d) for d in heap})]


# --- applying moves ---------------------------------------------------------------------------

def _start_player(state: State, move: Move) -> tuple[State, list[Event]]:
    p = drawn_start_player(state, move)
    return _begin_turn(replace(state, start_player=p), p, [Event("start_player", {"seat": p})])


def _begin_turn(state: State, p: int, events: list[Event]) -> tuple[State, list[Event]]:
    """Hand the turn to ``p`` or the next seat that can act; players who cannot are out.
    After a call, the turn goes to the next seat still owed its last turn."""
    for _ in range(2 * state.n + 2):
        if len(state.active()) <= 1:
            return _game_over(state, "last_standing", events)
        if state.caller is not None:
            if not state.final_turns:
                return _showdown(state, events)
            p = state.final_turns[0]
        elif state.seats[p].out:
            p = (p + 1) % state.n
            continue
        if can_buy(state, p) or state.seats[p].crate:
            seats = set_at(state.seats, p, thrown=())
            return replace(state, seats=seats, phase=TURN, player=p, mode=None), events
        state = _eliminate(state, p)
        events = events + [Event("eliminated", {"seat": p, "why": "can neither buy nor throw a can"})]
        p = (p + 1) % state.n
    raise AssertionError("no seat can act")


def _eliminate(state: State, p: int) -> State:
    """Seat ``p`` is out: its crate (and, while it throws, the cans still to be thrown) back to the heap."""
    throwing = state.player == p
    lost = set(state.seats[p].crate)
    if throwing:
        lost |= set(state.queue) | ({state.flying} if state.flying else set())
    state = replace(state, seats=set_at(state.seats, p, out=True, crate=(), thrown=()), heap=state.heap | lost,
                    final_turns=tuple(q for q in state.final_turns if q != p))
    return replace(state, queue=(), flying=None, mode=None) if throwing else state


def _buy(state: State, move: Move) -> tuple[State, list[Event]]:
    p, seat = move.player, state.seats[move.player]
    cans = arg_drinks(move, allow_empty=False)
    free = CRATE - len(seat.crate)
    if len(cans) > free:
        raise IllegalMove(f"you may buy as many cans as your crate has free slots ({free}), not {len(cans)}")
    gone = [d for d in cans if d not in state.heap]
    if gone:
        raise IllegalMove(f"{', '.join(gone)} is not on the heap (in a crate or stuck in the machine)")
    coins = arg_list(move, "coins")
    cost = sum(price(state, d) for d in cans)
    paid = handed_over(seat.coins, coins, cost, state.options.overpay)
    value = coin_value(paid)
    seats = set_at(state.seats, p, coins=add_coins(seat.coins, paid, -1))
    state = replace(state, seats=seats, pot=add_coins(state.pot, paid), heap=state.heap - set(cans),
                    flying=cans[0], queue=cans[1:], mode="buy", phase=DROP)
    return state, [Event("bought", {"seat": p, "drinks": list(cans), "paid": value, "cost": cost,
                                    "coins": list(coins)})]


def _throw(state: State, move: Move) -> tuple[State, list[Event]]:
    p, seat = move.player, state.seats[move.player]
    d = arg_drink(move)
    if d not in seat.crate:
        raise IllegalMove(f"{d} is not in your crate")
    if d in seat.thrown:
        raise IllegalMove(f"{d} was thrown already this turn; each can once per turn")
    seats = set_at(state.seats, p, crate=tuple(x for x in seat.crate if x != d), thrown=seat.thrown + (d,))
    return (replace(state, seats=seats, flying=d, mode="crate", phase=DROP),
            [Event("throwing", {"seat": p, "drink": d})])


def _drop(state: State, move: Move) -> tuple[State, list[Event]]:
    out = arg_drinks(move, "out")
    missed = arg_drinks(move, "missed", default=())
    if missed and tuple(missed) != (state.flying,):
        raise IllegalMove(f"only the can just thrown ({state.flying}) can have missed the machine")
    if missed and state.flying in out:
        raise IllegalMove(f"{state.flying} cannot both have missed the machine and come out of it")
    thrown = () if missed else (state.flying,)
    tower, drop = state.tower.drop(thrown, out)
    p = state.player
    seats = set_at(state.seats, p, crate=state.seats[p].crate + tuple(drop.out))
    state = replace(state, seats=seats, tower=tower, heap=state.heap | set(missed), flying=None)
    events = [Event("drop", {**drop.to_json(), "missed": list(missed), "seat": p})]
    if state.mode == "buy" and state.queue:
        return replace(state, flying=state.queue[0], queue=state.queue[1:]), events
    if state.mode == "crate":
        return replace(state, phase=MORE), events
    return _after_action(state, events)


def _stop(state: State, move: Move) -> tuple[State, list[Event]]:
    return _after_action(state, [Event("stopped", {"seat": move.player})])


def _after_action(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    if len(state.seats[state.player].crate) > CRATE:
        return replace(state, phase=DISCARD, mode=None), events
    return _call_or_end(replace(state, mode=None), events)


def _discard(state: State, move: Move) -> tuple[State, list[Event]]:
    p, seat = move.player, state.seats[move.player]
    d = arg_drink(move)
    if d not in seat.crate:
        raise IllegalMove(f"{d} is not in your crate")
    seats = set_at(state.seats, p, crate=tuple(x for x in seat.crate if x != d))
    state = replace(state, seats=seats, heap=state.heap | {d})
    events = [Event("discarded", {"seat": p, "drink": d})]
    if len(state.seats[p].crate) > CRATE:
        return state, events
    return _call_or_end(state, events)


def _call_or_end(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    if state.caller is not None:
        return _end_turn(state, events)
    auto = state.options.auto_call_at
    if auto and len(state.seats[state.player].crate) >= auto:
        return _called(state, events + [Event("called", {"seat": state.player, "automatic": True})])
    return replace(state, phase=CALL), events


def _call(state: State, move: Move) -> tuple[State, list[Event]]:
    return _called(state, [Event("called", {"seat": move.player, "automatic": False})])


def _called(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    p = state.player
    others = tuple(q for q in clockwise(p, state.n)[1:] if not state.seats[q].out)
    state = replace(state, caller=p, final_turns=others)
    return _end_turn(state, events)


def _end_turn_move(state: State, move: Move) -> tuple[State, list[Event]]:
    return _end_turn(state, [Event("turn_ended", {"seat": move.player})])


def _end_turn(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    p = state.player
    state = replace(state, turns=state.turns + 1, seats=set_at(state.seats, p, thrown=()),
                    final_turns=tuple(q for q in state.final_turns if q != p))
    if state.options.max_turns and state.turns >= state.options.max_turns:
        return _game_over(state, "turn_limit", events)
    if state.caller is not None:
        if not state.final_turns:
            return _showdown(state, events)
        return _begin_turn(state, state.final_turns[0], events)
    return _begin_turn(state, (p + 1) % state.n, events)


def _showdown(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    active = state.active()
    hands = {p: best_hand(state.seats[p].crate) for p in active}
    winners = top({p: hands[p][0] for p in active}, active)  # type: ignore[arg-type]
    shares, left = split_pot(state.pot, len(winners))
    seats = list(state.seats)
    heap = set(state.heap) | set(state.tower.inside)  # the round ends: the machine is emptied
    kept = None
    for w, share in zip(winners, shares):
        seat = seats[w]
        keep: tuple[str, ...] = ()
        if len(winners) == 1 and state.options.winner_keeps_sixth and len(seat.crate) == CRATE:
            keep = tuple(d for d in seat.crate if d not in hands[w][1])
            kept = keep[0] if keep else None
        heap |= set(seat.crate) - set(keep)
        seats[w] = replace(seat, coins=add_coins(seat.coins, share), crate=keep)
    result = {
        "round": state.round, "caller": state.caller, "winners": list(winners),
        "hands": {str(p): {"cans": list(hands[p][1]), "rank": hand_rank(state.seats[p].crate)[0]} for p in active},
        "shares": [coin_value(s) for s in shares], "pot_left": coin_value(left), "kept": kept,
    }
    first = (state.caller + 1) % state.n  # the player left of the caller starts the next round
    state = replace(state, seats=tuple(seats), pot=left, heap=frozenset(heap), tower=Tower(), caller=None,
                    final_turns=(), round=state.round + 1, last_showdown=result, start_player=first)
    return _begin_turn(state, first, events + [Event("showdown", result),
                                               Event("round_started", {"round": state.round})])


def _game_over(state: State, why: str, events: list[Event]) -> tuple[State, list[Event]]:
    active = state.active()
    winners = tuple(active) if why == "last_standing" else top({p: state.seats[p].yen for p in active}, active)
    state = replace(state, phase=OVER, winners=winners, end=why, mode=None)
    return state, events + [Event("game_over", {"winners": list(winners), "why": why})]


def _spill_to_thrower(state: State, out: tuple[str, ...]) -> State | None:
    """With ``spill_to`` "thrower", while a can is being thrown: into the thrower's crate if all fit."""
    p = state.player
    if state.options.spill_to == "thrower" and state.phase in (DROP, MORE) \
            and len(state.seats[p].crate) + len(out) <= CRATE:
        return replace(state, seats=set_at(state.seats, p, crate=state.seats[p].crate + tuple(out)))
    return None


def _foul(state: State, move: Move) -> tuple[State, list[Event]]:
    """The thrower touched or knocked over the machine: out of the game at once."""
    p = move.args.get("seat")
    if state.phase not in (DROP, MORE) or p != state.player:
        raise IllegalMove("a foul at the machine is reported for the player who is throwing, while throwing")
    state = _eliminate(state, p)
    events = [Event("eliminated", {"seat": p, "why": "touched the machine"})]
    return _begin_turn(replace(state, phase=TURN), (p + 1) % state.n, events)


# --- views ----------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    players = [{
        "seat": p, "name": s.name, "yen": s.yen, "coins": coins_json(s.coins), "crate": list(s.crate),
        "crate_free": CRATE - len(s.crate), "hand": hand_rank(s.crate)[0], "hand_cans": list(best_hand(s.crate)[1]),
        "out": s.out, "turn": p == state.player and state.phase not in (START, OVER),
        "caller": p == state.caller, "final_turn_due": p in state.final_turns, "thrown_this_turn": list(s.thrown),
    } for p, s in enumerate(state.seats)]
    return {
        "game": NAME, "phase": state.phase, "round": state.round, "players": players,
        "turn": state.player if state.phase not in (START, OVER) else None,
        "to_act": to_act(GAME.pending(state)),
        "pot": {"yen": coin_value(state.pot), "coins": coins_json(state.pot)},
        "heap": sort_drinks(state.heap), "tower": {"stuck": sort_drinks(state.tower.inside)},
        "throwing": state.flying, "queue": list(state.queue), "caller": state.caller,
        "prices": {"can": state.options.can_price, "bottle": state.options.bottle_price},
        "last_showdown": dict(state.last_showdown) if state.last_showdown else None,
        "winners": list(state.winners), "over": state.phase == OVER, "end": state.end,
        "final": {"why": state.end, "yen": [s.yen for s in state.seats]} if state.phase == OVER else None,
        "turns": state.turns, "max_turns": state.options.max_turns,
    }


def payouts(state: State) -> dict:
    """Money now; the pot; who would take it if the cards were shown now."""
    active = state.active()
    leading = list(top({p: best_hand(state.seats[p].crate)[0] for p in active}, active)) if active else []
    return {"yen": [s.yen for s in state.seats], "pot": coin_value(state.pot), "leading": leading,
            "final": state.phase == OVER, "winners": list(state.winners)}


def _buy_info(state: State, move: Move) -> MoveInfo:
    coins = move.args.get("coins", ())
    # The pot gives no change: the coins handed over are the cost, whatever the cans' price.
    return MoveInfo(cost=sum(int(c) for c in coins if c in DENOMS), pays_up_to=0, why="why.vending_poker.buy")


def _pot_info(state: State, move: Move) -> MoveInfo:
    return MoveInfo(pays_up_to=coin_value(state.pot), why="why.vending_poker.pot")


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(START, "the start player to be drawn", outcomes=start_player_outcomes, ends="when it is drawn"),
        Phase(TURN, lambda state: f"{_name(state)} to buy or throw cans", acting=the_player,
              ends="with a purchase or a throw from the crate"),
        Phase(DROP, lambda state: f"what came out of the tower after {_name(state)}'s throw", outcomes=throw_drop,
              ends="when the table says what came out: the next bought can, another throw, or the end of the turn"),
        Phase(MORE, lambda state: f"{_name(state)} to throw another can or stop", acting=the_player,
              ends="with another throw, or a stop"),
        Phase(DISCARD, lambda state: f"{_name(state)} to put back extra cans", acting=the_player,
              ends="when six cans are left in the crate"),
        Phase(CALL, lambda state: f"{_name(state)} to call or end the turn", acting=the_player,
              ends="with a call or the end of the turn"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("start_player", _start_player, f"{RULE}: VORBEREITUNG", phases=(START,), chance=True),
        Kind("buy", _buy, f"{RULE}: Eine Dose kaufen", phases=(TURN,), listed=_buys, compose=_buy_picks,
             info=_buy_info),
        Kind("throw", _throw, f"{RULE}: Eine Dose einwerfen", phases=(TURN, MORE), listed=_throws),
        Kind("stop", _stop, f"{RULE}: Eine Dose einwerfen", phases=(MORE,),
             listed=lambda state, p: [Move("stop", p)]),
        Kind("drop", _drop, f"{RULE}: In den Verkaufsautomaten einwerfen", phases=(DROP,), chance=True),
        Kind("discard", _discard, f"{RULE}: Eine Dose kaufen", phases=(DISCARD,),
             listed=lambda state, p: [Move("discard", p, {"drink": d}) for d in state.seats[p].crate]),
        Kind("call", _call, f"{RULE}: CALLEN", phases=(CALL,), listed=lambda state, p: [Move("call", p)],
             info=_pot_info),
        Kind("end_turn", _end_turn_move, f"{RULE}: CALLEN", phases=(CALL,),
             listed=lambda state, p: [Move("end_turn", p)], info=_pot_info),
        Kind("spill", lambda state, move: spill(state, move, "heap", _spill_to_thrower),
             f"{RULE}: In den Verkaufsautomaten einwerfen", chance=True, anytime=True),
        Kind("foul", _foul, f"{RULE}: In den Verkaufsautomaten einwerfen", chance=True, anytime=True),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: [s.name for s in state.seats],
    redraw=nothing_hidden,  # coins, crates, the heap and the tower are open on the table
    # a random playout takes about 25 x seats^2 units of ~0.3 ms (more seats, more and longer turns)
    playout_cost=lambda state: 25 * len(state.active()) ** 2,
    # what a person copies onto the real table (drinks into the tower or a crate; cards taken)
    board_events=frozenset({"bought", "throwing", "discarded"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
