"""The vending-machine poker game (rule book 002; no title in our copy).

Everyone has a crate and coins: a 1,000 note, two 500s and three 100s. On your turn
either buy cans from the heap (100 for the three can shapes, 200 for the three bottle
shapes; as many as your crate has free slots) paying coins into the pot, which never
gives change, and throw each bought can into the tower on its own; or throw cans from
your crate, one after another for as long as you like. Whatever comes out is yours.
At the end of a turn you may call (with six cans you call anyway); everyone else then
has one more turn, and the best five-can poker hand takes the pot: colours are suits,
shapes are ranks (stubby can lowest, tallest bottle highest), five of a kind beats all.
The winner empties the crate (keeping a sixth can that is not in the hand). A player
who can neither buy nor throw is out; the last one left wins. See docs/rules-notes.md.

>>> hand_rank(["red-tall_can", "blue-tall_can", "mint-tall_can", "white-tall_can", "black-tall_can"])[0]
'five_of_a_kind'
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations, product
from typing import Any, Mapping, Sequence

from ...drinks import ALL_DRINKS, Shape
from ..engine import (CHANCE, Actor, ChanceDrop, ChanceSpec, Composite, Event, IllegalMove, Move,
                      MoveInfo, Pending, uniform)
from ..tower import Tower
from .common import (arg_drink, arg_drinks, arg_list, clockwise, dispatch, drink, options_from_config,
                     seat_names, set_at, sort_drinks, top)

NAME = "vending_poker"
TITLE = "Vending-machine poker"
PLAYERS = (2, 3, 4, 5, 6)

START, TURN, DROP, MORE, DISCARD, CALL, OVER = "start", "turn", "drop", "more", "discard", "call", "over"
PHASES = (START, TURN, DROP, MORE, DISCARD, CALL, OVER)
CRATE = 6
DENOMS = (1000, 500, 100)
CANS = (Shape.STUBBY_CAN, Shape.SHORT_CAN, Shape.TALL_CAN)

CATEGORIES = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
              "four_of_a_kind", "straight_flush", "five_of_a_kind")


@dataclass(frozen=True)
class Options:
    players: int = 3
    notes_1000: int = 1              # each player's starting coins
    coins_500: int = 2
    coins_100: int = 3
    can_price: int = 100             # stubby, short and tall cans
    bottle_price: int = 200          # square, not-tallest and tallest bottles
    auto_call_at: int = 6            # a crate this full at the end of a turn calls (0: never)
    winner_keeps_sixth: bool = True  # a sole winner with six cans keeps the one outside the hand
    spill_to: str = "heap"           # a can falling out on its own: "heap" or "thrower"
    max_turns: int = 400             # a bound so that a game always ends (0: none)

    def __post_init__(self) -> None:
        if self.spill_to not in ("heap", "thrower"):
            raise IllegalMove("option spill_to must be 'heap' or 'thrower'")


Coins = tuple[int, int, int]  # how many 1000s, 500s, 100s


def coin_value(coins: Coins) -> int:
    return sum(n * d for n, d in zip(coins, DENOMS))


def coins_json(coins: Coins) -> dict:
    return {str(d): n for d, n in zip(DENOMS, coins)}


def _add(a: Coins, b: Coins, sign: int = 1) -> Coins:
    return tuple(x + sign * y for x, y in zip(a, b))  # type: ignore[return-value]


def _count(payment: Sequence[int]) -> Coins:
    return tuple(sum(1 for c in payment if c == d) for d in DENOMS)  # type: ignore[return-value]


def payments(have: Coins, price: int) -> list[Coins]:
    """Every way to pay ``price`` from ``have`` with no coin to spare (no change is given)."""
    found = []
    for counts in product(*(range(n + 1) for n in have)):
        value = coin_value(counts)
        if value < price or not any(counts):
            continue
        smallest = min(d for d, n in zip(DENOMS, counts) if n)
        if value - smallest < price:
            found.append(counts)
    return found


def split_pot(pot: Coins, k: int) -> tuple[list[Coins], Coins]:
    """Share the pot's coins equally among ``k`` winners as far as possible without change.

    The largest equal share each winner can be handed; what cannot be shared stays in the pot.
    """
    units = (10, 5, 1)
    total = sum(n * u for n, u in zip(pot, units))
    for share in range(total // k, 0, -1):
        comps = [c for c in product(*(range(n + 1) for n in pot))
                 if sum(x * u for x, u in zip(c, units)) == share]
        groups = _find_groups(pot, comps, k, 0)
        if groups is not None:
            left = pot
            for g in groups:
                left = _add(left, g, -1)
            return groups, left
    return [(0, 0, 0)] * k, pot


def _find_groups(left: Coins, comps: list, k: int, start: int) -> list | None:
    if k == 0:
        return []
    for i in range(start, len(comps)):
        c = comps[i]
        if all(x <= y for x, y in zip(c, left)):
            rest = _find_groups(_add(left, c, -1), comps, k - 1, i)
            if rest is not None:
                return [c] + rest
    return None


# --- hands ----------------------------------------------------------------------------------

def _rank5(cans: Sequence[str]) -> tuple:
    ds = [drink(c) for c in cans]
    ranks = sorted((d.shape.height_rank for d in ds), reverse=True)
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    order = tuple(r for r, _ in groups)
    flush = len(ds) == 5 and len({d.colour for d in ds}) == 1
    straight = len(ds) == 5 and len(counts) == 5 and ranks[0] - ranks[-1] == 4
    if shape[:1] == [5]:
        cat = 9
    elif straight and flush:
        cat = 8
    elif shape[:1] == [4]:
        cat = 7
    elif shape[:2] == [3, 2]:
        cat = 6
    elif flush:
        cat = 5
    elif straight:
        cat = 4
    elif shape[:1] == [3]:
        cat = 3
    elif shape[:2] == [2, 2]:
        cat = 2
    elif shape[:1] == [2]:
        cat = 1
    else:
        cat = 0
    return (cat,) + order


def best_hand(crate: Sequence[str]) -> tuple[tuple, tuple[str, ...]]:
    """The best hand of up to five cans from a crate: (rank key, the cans). Ties between
    equally good selections keep the tallest leftover can out of the hand."""
    crate = sort_drinks(crate)
    if not crate:
        return (-1,), ()
    size = min(5, len(crate))
    best = None
    for combo in combinations(crate, size):
        key = _rank5(combo)
        if best is None or key > best[0]:
            best = (key, combo)
    return best


def hand_rank(crate: Sequence[str]) -> tuple[str, tuple]:
    key, cans = best_hand(crate)
    return ("nothing" if key[0] < 0 else CATEGORIES[key[0]]), key


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


def price(state: State, drink_id: str) -> int:
    o = state.options
    return o.can_price if drink(drink_id).shape in CANS else o.bottle_price


def setup(config: Mapping[str, Any]) -> State:
    opts = options_from_config(Options, config, TITLE, PLAYERS)
    names = seat_names(config, opts.players)
    coins = (opts.notes_1000, opts.coins_500, opts.coins_100)
    state = State(opts, tuple(Seat(n, coins) for n in names))
    start = config.get("start_player")
    if start is not None:
        if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < opts.players:
            raise IllegalMove(f"seat must be 0 to {opts.players - 1}, not {start!r}")
        state, _ = _begin_turn(replace(state, start_player=start), start, [])
    return state


# --- who acts -------------------------------------------------------------------------------

def pending(state: State) -> list[Pending]:
    if state.phase == OVER:
        return []
    if state.phase in (START, DROP):
        return [Pending(CHANCE)]
    return [Pending(state.player)]


def is_over(state: State) -> bool:
    return state.phase == OVER


def _waiting(state: State) -> str:
    name = state.seats[state.player].name
    return {START: "the start player to be drawn", TURN: f"{name} to buy or throw cans",
            DROP: f"what came out of the tower after {name}'s throw",
            MORE: f"{name} to throw another can or stop", DISCARD: f"{name} to put back extra cans",
            CALL: f"{name} to call or end the turn", OVER: "nothing"}[state.phase]


def can_buy(state: State, p: int) -> bool:
    seat = state.seats[p]
    if len(seat.crate) >= CRATE or not state.heap:
        return False
    return seat.yen >= min(price(state, d) for d in state.heap)


def legal_moves(state: State, actor: Actor) -> list[Move]:
    if actor == CHANCE:
        spec = chance(state)
        return [m for m, _ in spec.outcomes] if spec is not None and spec.kind == "choice" else []
    if state.phase in (START, DROP, OVER) or actor != state.player:
        return []
    seat = state.seats[actor]
    if state.phase == TURN:
        moves = []
        if can_buy(state, actor):
            ways = {pr: payments(seat.coins, pr) for pr in {price(state, d) for d in state.heap}}
            for d in sort_drinks(state.heap):
                for way in ways[price(state, d)]:
                    coins = tuple(c for c, n in zip(DENOMS, way) for _ in range(n))
                    moves.append(Move("buy", actor, {"drinks": (d,), "coins": coins}))
        moves += [Move("throw", actor, {"drink": d}) for d in seat.crate]
        return moves
    if state.phase == MORE:
        return [Move("throw", actor, {"drink": d}) for d in seat.crate if d not in seat.thrown] + [Move("stop", actor)]
    if state.phase == DISCARD:
        return [Move("discard", actor, {"drink": d}) for d in seat.crate]
    if state.phase == CALL:
        return [Move("call", actor), Move("end_turn", actor)]
    raise AssertionError(state.phase)


def composite_moves(state: State, seat: int) -> list[dict]:
    """The bigger form of ``buy``: several cans from the heap at once (as many as the crate
    has free slots and the coins pay for), paid with coins and no coin to spare."""
    if state.phase != TURN or seat != state.player or not can_buy(state, seat):
        return []
    s = state.seats[seat]
    heap = sort_drinks(state.heap)
    cheapest = sorted(price(state, d) for d in heap)
    most = 0
    while most < min(CRATE - len(s.crate), len(heap)) and sum(cheapest[:most + 1]) <= s.yen:
        most += 1
    return [Composite("buy", {"arg": "drinks", "from": heap, "min": 1, "max": most},
                      coins={"arg": "coins", "have": coins_json(s.coins)},
                      each={d: price(state, d) for d in heap}).to_json()]


def chance(state: State) -> ChanceSpec | None:
    if state.phase == START:
        return uniform(Move("start_player", CHANCE, {"seat": p}) for p in range(state.n))
    if state.phase == DROP:
        return ChanceDrop("drop", (state.flying,), tuple(sort_drinks(state.tower.inside)))
    return None


# --- applying moves ---------------------------------------------------------------------------

def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """The new state and what happened; IllegalMove (state untouched) if not allowed now."""
    return dispatch(state, move, over=is_over(state), pending=pending(state), phase=state.phase,
                    handlers=_HANDLERS, names=[s.name for s in state.seats], waiting=_waiting(state),
                    anytime={"spill": _spill, "foul": _foul})


def _start_player(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.args.get("seat")
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < state.n:
        raise IllegalMove(f"'seat' must be 0 to {state.n - 1}, not {p!r}")
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
    seat = state.seats[p]
    lost = set(seat.crate)
    if state.player == p:
        lost |= set(state.queue) | ({state.flying} if state.flying else set())
    seats = set_at(state.seats, p, out=True, crate=(), thrown=())
    changes: dict[str, Any] = {"seats": seats, "heap": state.heap | lost,
                               "final_turns": tuple(q for q in state.final_turns if q != p)}
    if state.player == p:
        changes.update(queue=(), flying=None, mode=None)
    return replace(state, **changes)


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
    if not coins or any(c not in DENOMS or isinstance(c, bool) for c in coins):
        raise IllegalMove(f"'coins' must list the coins you pay with: {', '.join(map(str, DENOMS))}")
    paid = _count([int(c) for c in coins])
    if any(x > y for x, y in zip(paid, seat.coins)):
        raise IllegalMove(f"you do not have those coins; you have {_describe(seat.coins)}")
    cost = sum(price(state, d) for d in cans)
    value = coin_value(paid)
    if value < cost:
        raise IllegalMove(f"the cans cost {cost} yen; those coins make only {value}")
    if value - min(d for d in DENOMS if paid[DENOMS.index(d)]) >= cost:
        raise IllegalMove(f"pay {cost} yen without a coin to spare: the pot gives no change, so "
                          "leave out any coin you do not need")
    seats = set_at(state.seats, p, coins=_add(seat.coins, paid, -1))
    state = replace(state, seats=seats, pot=_add(state.pot, paid), heap=state.heap - set(cans),
                    flying=cans[0], queue=cans[1:], mode="buy", phase=DROP)
    return state, [Event("bought", {"seat": p, "drinks": list(cans), "paid": value, "cost": cost,
                                    "coins": list(coins)})]


def _describe(coins: Coins) -> str:
    return ", ".join(f"{n} x {d}" for d, n in zip(DENOMS, coins) if n) or "no coins"


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
        seats[w] = replace(seat, coins=_add(seat.coins, share), crate=keep)
    result = {
        "round": state.round, "caller": state.caller, "winners": list(winners),
        "hands": {str(p): {"cans": list(hands[p][1]), "rank": hand_rank(state.seats[p].crate)[0]} for p in active},
        "shares": [coin_value(s) for s in shares], "pot_left": coin_value(left), "kept": kept,
    }
    nxt = state.caller
    state = replace(state, seats=tuple(seats), pot=left, heap=frozenset(heap), tower=Tower(), caller=None,
                    final_turns=(), round=state.round + 1, last_showdown=result)
    events = events + [Event("showdown", result)]
    start = (nxt + 1) % state.n
    state = replace(state, start_player=start)
    return _begin_turn(state, start, events + [Event("round_started", {"round": state.round})])


def _game_over(state: State, why: str, events: list[Event]) -> tuple[State, list[Event]]:
    active = state.active()
    winners = tuple(active) if why == "last_standing" else top({p: state.seats[p].yen for p in active}, active)
    state = replace(state, phase=OVER, winners=winners, end=why, mode=None)
    return state, events + [Event("game_over", {"winners": list(winners), "why": why})]


def _spill(state: State, move: Move) -> tuple[State, list[Event]]:
    out = arg_drinks(move, "out")
    tower = state.tower.spill(out)
    p = state.player
    if state.options.spill_to == "thrower" and state.phase in (DROP, MORE) \
            and len(state.seats[p].crate) + len(out) <= CRATE:
        seats = set_at(state.seats, p, crate=state.seats[p].crate + tuple(out))
        return replace(state, tower=tower, seats=seats), [Event("spill", {"out": list(out), "to": p})]
    return replace(state, tower=tower, heap=state.heap | set(out)), [Event("spill", {"out": list(out), "to": "heap"})]


def _foul(state: State, move: Move) -> tuple[State, list[Event]]:
    """The thrower touched or knocked over the machine: out of the game at once."""
    p = move.args.get("seat")
    if state.phase not in (DROP, MORE) or p != state.player:
        raise IllegalMove("a foul at the machine is reported for the player who is throwing, while throwing")
    state = _eliminate(state, p)
    events = [Event("eliminated", {"seat": p, "why": "touched the machine"})]
    return _begin_turn(replace(state, phase=TURN), (p + 1) % state.n, events)


_HANDLERS = {
    (START, "start_player"): _start_player, (TURN, "buy"): _buy, (TURN, "throw"): _throw,
    (DROP, "drop"): _drop, (MORE, "throw"): _throw, (MORE, "stop"): _stop,
    (DISCARD, "discard"): _discard, (CALL, "call"): _call, (CALL, "end_turn"): _end_turn_move,
}


# --- views ----------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    players = []
    for p, s in enumerate(state.seats):
        rank, _ = hand_rank(s.crate)
        players.append({
            "seat": p, "name": s.name, "yen": s.yen, "coins": coins_json(s.coins), "crate": list(s.crate),
            "crate_free": CRATE - len(s.crate), "hand": rank, "hand_cans": list(best_hand(s.crate)[1]),
            "out": s.out, "turn": p == state.player and state.phase not in (START, OVER),
            "caller": p == state.caller, "final_turn_due": p in state.final_turns,
            "thrown_this_turn": list(s.thrown),
        })
    return {
        "game": NAME, "phase": state.phase, "round": state.round, "players": players,
        "turn": state.player if state.phase not in (START, OVER) else None,
        "to_act": [{"actor": w.actor, "secret_for": w.secret_for} for w in pending(state)],
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


def move_info(state: State, move: Move) -> MoveInfo:
    if move.kind == "buy":
        coins = move.args.get("coins", ())
        return MoveInfo(cost=sum(int(c) for c in coins if c in DENOMS), pays_up_to=0)
    if move.kind in ("call", "end_turn"):
        return MoveInfo(pays_up_to=coin_value(state.pot))
    return MoveInfo()
