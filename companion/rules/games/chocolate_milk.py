"""CHOCOLATE MILK (rule book 002): a market the players move, set collection and selling.

A 3x3 market of plot cards: one drink on each outer card, two on the centre, where
every player's marker starts. Each player has 500 yen and a crate. On your turn do one
of three things: move one card (also diagonally) and buy a drink there for 100 yen,
throw it into the tower and, if it comes out, put it in one of your crates (the card
gets a new drink at random from the supply, and the drink's colour and shape cards
each get 100 yen); or sell drinks from your crates that match one colour or shape
card, at the yen on that card each, which then goes back to the bank; or pay 200 for
an extra crate. The game ends at once when a crate holds six drinks of one colour or
shape, or a player has 2,000 yen. Each crate scores one colour or shape: its count
squared times 100 yen. The "strategic" variant skips the tower.

Cells are numbered 0-8 row by row (0 top left, 4 the centre, 8 bottom right).

>>> [c for c in range(9) if adjacent(4, c)]
[0, 1, 2, 3, 5, 6, 7, 8]
>>> crate_score(["mint-tall_can", "mint-short_can", "mint-stubby_can", "mint-square_bottle", "red-tall_can"])
('mint', 4, 1600)
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from ...drinks import ALL_DRINKS, CARD_IDS
from ..engine import (CHANCE, Actor, ChanceChoice, ChanceDrop, ChanceSpec, Composite, Event, IllegalMove, Move,
                      MoveInfo, Pending, uniform)
from ..tower import Tower
from .common import (arg_card, arg_drink, arg_drinks, arg_int, best_attribute, dispatch, drink, matches,
                     options_from_config, seat_names, set_at, sort_drinks, top)

NAME = "chocolate_milk"
TITLE = "CHOCOLATE MILK"
PLAYERS = (2, 3, 4, 5, 6)

FILL, START, TURN, REFILL, DROP, OVER = "fill", "start", "turn", "refill", "drop", "over"
PHASES = (FILL, START, TURN, REFILL, DROP, OVER)
CENTRE = 4
CRATE = 6
FILL_ORDER = (0, 1, 2, 3, 5, 6, 7, 8, 4, 4)   # one drink on each outer card, two on the centre


def dice_refill(supply: frozenset[str] | set[str], colour_roll: int, shape_roll: int,
                colour_row: Sequence[str], shape_row: Sequence[str]) -> str | None:
    """The drink two dice name: the colour card under the first roll, the shape card under
    the second (counted from the left); a colour or shape no longer in the supply moves on
    to the next card to its right (round to the first after the last)."""
    colours = [c for k in range(6) for c in [colour_row[(colour_roll - 1 + k) % 6]]
               if any(d.startswith(c + "-") for d in supply)]
    if not colours:
        return None
    colour = colours[0]
    for k in range(6):
        shape = shape_row[(shape_roll - 1 + k) % 6]
        if f"{colour}-{shape}" in supply:
            return f"{colour}-{shape}"
    return None


def adjacent(a: int, b: int) -> bool:
    """One step apart on the 3x3 grid, orthogonally or diagonally."""
    (ra, ca), (rb, cb) = divmod(a, 3), divmod(b, 3)
    return a != b and abs(ra - rb) <= 1 and abs(ca - cb) <= 1


def crate_score(drinks: Sequence[str], unit: int = 100) -> tuple[str | None, int, int]:
    """The attribute a crate is best scored by, how many match, and the payout (count squared)."""
    card, n = best_attribute(drinks)
    return card, n, n * n * unit


@dataclass(frozen=True)
class Options:
    players: int = 3
    start_yen: int = 500
    drink_price: int = 100
    card_rise: int = 100             # yen put on the drink's colour card and on its shape card
    rise_when: str = "buy"           # "buy": on every purchase; "out": only if it came out
    crate_price: int = 200
    crates_for_sale: int = -1        # -1: the crates nobody got at the start (6 - players)
    use_tower: bool = True           # False: the "strategic" variant, the drink is yours at once
    win_yen: int = 2000
    same_kind: int = 6               # six drinks of one colour or shape in a crate end the game
    score_unit: int = 100
    spill_to: str = "supply"         # a drink falling out on its own: "supply" or "thrower"
    refill: str = "draw"             # "draw": a random drink from the supply; "dice": two dice over the card rows
    colour_row: tuple = tuple(c for c in CARD_IDS[:6])   # the colour cards left to right (for the dice)
    shape_row: tuple = tuple(c for c in CARD_IDS[6:])    # the shape cards left to right
    max_turns: int = 300             # a bound so that a game always ends (0: none)

    BOUNDS = {"crates_for_sale": (-1, 6)}  # beyond common.OPTION_RANGE; -1: by the player count

    def __post_init__(self) -> None:
        if self.rise_when not in ("buy", "out"):
            raise IllegalMove("option rise_when must be 'buy' or 'out'")
        if self.spill_to not in ("supply", "thrower"):
            raise IllegalMove("option spill_to must be 'supply' or 'thrower'")
        if self.refill not in ("draw", "dice"):
            raise IllegalMove("option refill must be 'draw' or 'dice'")
        if sorted(self.colour_row) != sorted(CARD_IDS[:6]) or sorted(self.shape_row) != sorted(CARD_IDS[6:]):
            raise IllegalMove("options colour_row and shape_row must list the six colours and the six shapes")
        object.__setattr__(self, "colour_row", tuple(self.colour_row))
        object.__setattr__(self, "shape_row", tuple(self.shape_row))


@dataclass(frozen=True)
class Seat:
    name: str
    yen: int
    pos: int = CENTRE
    crates: tuple[tuple[str, ...], ...] = ((),)


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[Seat, ...]
    bank: int = 0
    phase: str = FILL
    player: int = 0
    start_player: int = 0
    start_known: bool = False        # the config named the start player
    grid: tuple[tuple[str, ...], ...] = ((),) * 9
    supply: frozenset[str] = frozenset(d.id for d in ALL_DRINKS)
    prices: tuple[tuple[str, int], ...] = tuple((c, 0) for c in CARD_IDS)
    crates_left: int = 0
    tower: Tower = field(default_factory=Tower)
    flying: str | None = None        # the drink bought and thrown this turn
    into: int = 0                    # the crate it goes to if it comes out
    refill: int | None = None        # the cell that needs a new drink
    turns: int = 0
    passes: int = 0                  # passes in a row
    last: Mapping[str, Any] | None = None
    final: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.seats)

    def price(self, card: str) -> int:
        return dict(self.prices)[card]


def setup(config: Mapping[str, Any]) -> State:
    opts = options_from_config(Options, config, TITLE, PLAYERS)
    names = seat_names(config, opts.players)
    spare = 6 - opts.players if opts.crates_for_sale < 0 else opts.crates_for_sale
    state = State(opts, tuple(Seat(n, opts.start_yen) for n in names), crates_left=spare)
    start = config.get("start_player")
    if start is not None:
        if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < opts.players:
            raise IllegalMove(f"seat must be 0 to {opts.players - 1}, not {start!r}")
        state = replace(state, start_player=start, player=start, start_known=True)
    return state


def _filled(state: State) -> int:
    return sum(len(c) for c in state.grid)


# --- who acts -------------------------------------------------------------------------------

def pending(state: State) -> list[Pending]:
    if state.phase == OVER:
        return []
    if state.phase == TURN:
        return [Pending(state.player)]
    return [Pending(CHANCE)]


def is_over(state: State) -> bool:
    return state.phase == OVER


def _waiting(state: State) -> str:
    name = state.seats[state.player].name
    return {FILL: "the market's drinks to be drawn", START: "the start player to be drawn",
            TURN: f"{name} to move and buy, sell, or buy a crate",
            REFILL: "a new drink for the card just bought from",
            DROP: "whether the bought drink came out of the tower", OVER: "nothing"}[state.phase]


def _can_buy_here(state: State, p: int) -> bool:
    seat = state.seats[p]
    return seat.yen >= state.options.drink_price and any(len(c) < CRATE for c in seat.crates)


def _actions(state: State, p: int) -> list[Move]:
    seat, o = state.seats[p], state.options
    moves = []
    if _can_buy_here(state, p):
        rooms = [i for i, c in enumerate(seat.crates) if len(c) < CRATE]
        for cell in range(9):
            if adjacent(seat.pos, cell):
                for d in state.grid[cell]:
                    moves += [Move("buy", p, {"to": cell, "drink": d, "crate": i}) for i in rooms]
    mine = [d for c in seat.crates for d in c]
    for card in CARD_IDS:
        fits = [d for d in mine if matches(d, card)]
        if fits:
            moves.append(Move("sell", p, {"card": card, "drinks": tuple(fits)}))
            if len(fits) > 1:
                moves += [Move("sell", p, {"card": card, "drinks": (d,)}) for d in fits]
    if state.crates_left > 0 and seat.yen >= o.crate_price:
        moves.append(Move("buy_crate", p))
    return moves


def legal_moves(state: State, actor: Actor) -> list[Move]:
    if actor == CHANCE:
        spec = chance(state)
        return [m for m, _ in spec.outcomes] if spec is not None and spec.kind == "choice" else []
    if state.phase != TURN or actor != state.player:
        return []
    return _actions(state, actor) or [Move("pass", actor)]


def composite_moves(state: State, seat: int) -> list[dict]:
    """The bigger form of ``sell``: any of your drinks that match one card, one entry per card."""
    if state.phase != TURN or seat != state.player:
        return []
    mine = sort_drinks(d for c in state.seats[seat].crates for d in c)
    found = []
    for card in CARD_IDS:
        fits = [d for d in mine if matches(d, card)]
        if fits:
            each = state.price(card)
            found.append(Composite("sell", {"arg": "drinks", "from": fits, "min": 1, "max": len(fits)},
                                   base={"card": card},
                                   pays={str(k): each * k for k in range(1, len(fits) + 1)}).to_json())
    return found


def chance(state: State) -> ChanceSpec | None:
    if state.phase == FILL:
        cell = FILL_ORDER[_filled(state)]
        return uniform(Move("place", CHANCE, {"cell": cell, "drink": d}) for d in sort_drinks(state.supply))
    if state.phase == START:
        return uniform(Move("start_player", CHANCE, {"seat": p}) for p in range(state.n))
    if state.phase == REFILL:
        o = state.options
        if o.refill == "dice":
            odds: dict[str, float] = {}
            for a in range(1, 7):
                for b in range(1, 7):
                    d = dice_refill(state.supply, a, b, o.colour_row, o.shape_row)
                    odds[d] = odds.get(d, 0) + 1 / 36
            return ChanceChoice(tuple((Move("refill", CHANCE, {"drink": d}), odds[d]) for d in sort_drinks(odds)))
        return uniform(Move("refill", CHANCE, {"drink": d}) for d in sort_drinks(state.supply))
    if state.phase == DROP:
        return ChanceDrop("drop", (state.flying,), tuple(sort_drinks(state.tower.inside)))
    return None


# --- applying moves ---------------------------------------------------------------------------

def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """The new state and what happened; IllegalMove (state untouched) if not allowed now."""
    return dispatch(state, move, over=is_over(state), pending=pending(state), phase=state.phase,
                    handlers=_HANDLERS, names=[s.name for s in state.seats], waiting=_waiting(state),
                    anytime={"spill": _spill})


def _set_cell(grid: tuple, cell: int, drinks: tuple[str, ...]) -> tuple:
    return tuple(drinks if i == cell else c for i, c in enumerate(grid))


def _place(state: State, move: Move) -> tuple[State, list[Event]]:
    d = arg_drink(move)
    cell = FILL_ORDER[_filled(state)]
    if move.args.get("cell", cell) != cell:
        raise IllegalMove(f"the next drink goes on card {cell}")
    if d not in state.supply:
        raise IllegalMove(f"{d} is not in the supply")
    state = replace(state, grid=_set_cell(state.grid, cell, state.grid[cell] + (d,)), supply=state.supply - {d})
    if _filled(state) == len(FILL_ORDER):
        state = replace(state, phase=TURN if state.start_known else START)
    return state, [Event("placed", {"cell": cell, "drink": d})]


def _start_player(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.args.get("seat")
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < state.n:
        raise IllegalMove(f"'seat' must be 0 to {state.n - 1}, not {p!r}")
    return replace(state, phase=TURN, start_player=p, player=p), [Event("start_player", {"seat": p})]


def _rise(state: State, drink_id: str) -> State:
    d, by = drink(drink_id), state.options.card_rise
    keys = {d.colour.value, d.shape.value}
    prices = tuple((c, y + by if c in keys else y) for c, y in state.prices)
    return replace(state, prices=prices, bank=state.bank - 2 * by)


def _buy(state: State, move: Move) -> tuple[State, list[Event]]:
    p, o = move.player, state.options
    seat = state.seats[p]
    cell = arg_int(move, "to")
    if not 0 <= cell < 9 or not adjacent(seat.pos, cell):
        raise IllegalMove(f"move exactly one card (also diagonally) from card {seat.pos}; {cell} is not next to it")
    d = arg_drink(move)
    if d not in state.grid[cell]:
        raise IllegalMove(f"{d} is not on card {cell}; there: {', '.join(state.grid[cell]) or 'nothing'}")
    i = arg_int(move, "crate", 0)
    if not 0 <= i < len(seat.crates) or len(seat.crates[i]) >= CRATE:
        raise IllegalMove(f"crate {i} is not one of your crates with a free slot")
    if seat.yen < o.drink_price:
        raise IllegalMove(f"a drink costs {o.drink_price} yen and you have {seat.yen}")
    seats = set_at(state.seats, p, yen=seat.yen - o.drink_price, pos=cell)
    state = replace(state, seats=seats, bank=state.bank + o.drink_price,
                    grid=_set_cell(state.grid, cell, tuple(x for x in state.grid[cell] if x != d)),
                    flying=d, into=i, refill=cell, passes=0)
    if o.rise_when == "buy":
        state = _rise(state, d)
    events = [Event("bought", {"seat": p, "cell": cell, "drink": d, "paid": o.drink_price})]
    if state.supply:
        return replace(state, phase=REFILL), events
    return _after_refill(replace(state, refill=None), events)


def _refill(state: State, move: Move) -> tuple[State, list[Event]]:
    d = arg_drink(move)
    if d not in state.supply:
        raise IllegalMove(f"{d} is not in the supply")
    cell = state.refill
    state = replace(state, grid=_set_cell(state.grid, cell, state.grid[cell] + (d,)), supply=state.supply - {d},
                    refill=None)
    return _after_refill(state, [Event("refilled", {"cell": cell, "drink": d})])


def _after_refill(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    if state.options.use_tower:
        return replace(state, phase=DROP), events
    return _receive(state, (state.flying,), events)


def _drop(state: State, move: Move) -> tuple[State, list[Event]]:
    out = arg_drinks(move, "out")
    tower, drop = state.tower.drop((state.flying,), out)
    state = replace(state, tower=tower)
    events = [Event("drop", {**drop.to_json(), "seat": state.player})]
    if state.flying not in drop.out:
        # stuck: it stays in the tower; freed drinks still come to the player
        state = replace(state, flying=None)
    return _receive(state, tuple(drop.out), events)


def _receive(state: State, out: tuple[str, ...], events: list[Event]) -> tuple[State, list[Event]]:
    """Drinks that came out go to the player's crates (the chosen one first); no room: the supply."""
    p = state.player
    crates = [list(c) for c in state.seats[p].crates]
    back = []
    for d in out:
        order = [state.into] + [i for i in range(len(crates)) if i != state.into] if d == state.flying else \
            list(range(len(crates)))
        room = next((i for i in order if len(crates[i]) < CRATE), None)
        if room is None:
            back.append(d)
        else:
            crates[room].append(d)
    seats = set_at(state.seats, p, crates=tuple(tuple(c) for c in crates))
    if state.options.rise_when == "out" and state.flying in out:
        state = _rise(state, state.flying)
    state = replace(state, seats=seats, supply=state.supply | set(back), flying=None,
                    last={"seat": p, "came_out": list(out), "to_supply": back})
    return _end_turn(state, events + [Event("received", {"seat": p, "drinks": [d for d in out if d not in back],
                                                          "to_supply": back})])


def _sell(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    card = arg_card(move)
    drinks = arg_drinks(move, allow_empty=False)
    seat = state.seats[p]
    mine = {d for c in seat.crates for d in c}
    missing = [d for d in drinks if d not in mine]
    if missing:
        raise IllegalMove(f"{', '.join(missing)} is not in your crates")
    wrong = [d for d in drinks if not matches(d, card)]
    if wrong:
        raise IllegalMove(f"{', '.join(wrong)} does not match the {card} card; sell against one card at a time")
    each = state.price(card)
    got = each * len(drinks)
    crates = tuple(tuple(d for d in c if d not in drinks) for c in seat.crates)
    seats = set_at(state.seats, p, yen=seat.yen + got, crates=crates)
    prices = tuple((c, 0 if c == card else y) for c, y in state.prices)
    # the bank pays for the drinks; the yen on the card go back to the bank
    state = replace(state, seats=seats, bank=state.bank - got + each, prices=prices,
                    supply=state.supply | set(drinks), passes=0)
    return _end_turn(state, [Event("sold", {"seat": p, "card": card, "drinks": list(drinks), "each": each,
                                            "got": got})])


def _buy_crate(state: State, move: Move) -> tuple[State, list[Event]]:
    p, o = move.player, state.options
    if state.crates_left <= 0:
        raise IllegalMove("there is no crate left to buy")
    seat = state.seats[p]
    if seat.yen < o.crate_price:
        raise IllegalMove(f"a crate costs {o.crate_price} yen and you have {seat.yen}")
    seats = set_at(state.seats, p, yen=seat.yen - o.crate_price, crates=seat.crates + ((),))
    state = replace(state, seats=seats, bank=state.bank + o.crate_price, crates_left=state.crates_left - 1, passes=0)
    return _end_turn(state, [Event("bought_crate", {"seat": p, "paid": o.crate_price})])


def _pass(state: State, move: Move) -> tuple[State, list[Event]]:
    if _actions(state, move.player):
        raise IllegalMove("you may pass only when none of the three actions is possible")
    return _end_turn(replace(state, passes=state.passes + 1), [Event("passed", {"seat": move.player})])


def end_reason(state: State) -> str | None:
    o = state.options
    for s in state.seats:
        for c in s.crates:
            if best_attribute(c)[1] >= o.same_kind:
                return "crate_of_a_kind"
    if any(s.yen >= o.win_yen for s in state.seats):
        return "rich"
    if state.passes >= state.n:
        return "nobody_can_act"
    if o.max_turns and state.turns >= o.max_turns:
        return "turn_limit"
    return None


def _end_turn(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    state = replace(state, turns=state.turns + 1, phase=TURN, refill=None)
    reason = end_reason(state)
    if reason:
        return _finish(state, reason, events)
    return replace(state, player=(state.player + 1) % state.n), events


def scores(state: State) -> list[dict]:
    unit = state.options.score_unit
    out = []
    for s in state.seats:
        per = [dict(zip(("by", "count", "yen"), crate_score(c, unit))) for c in s.crates]
        crate_yen = sum(c["yen"] for c in per)
        out.append({"crates": per, "crate_yen": crate_yen, "total": s.yen + crate_yen})
    return out


def _finish(state: State, reason: str, events: list[Event]) -> tuple[State, list[Event]]:
    sc = scores(state)
    seats = tuple(replace(s, yen=sc[p]["total"]) for p, s in enumerate(state.seats))
    winners = top([s.yen for s in seats])
    final = {"reason": reason, "scores": sc}
    state = replace(state, seats=seats, bank=state.bank - sum(x["crate_yen"] for x in sc), phase=OVER,
                    final=final, winners=winners)
    return state, events + [Event("game_over", {"winners": list(winners), **final})]


def _spill(state: State, move: Move) -> tuple[State, list[Event]]:
    out = arg_drinks(move, "out")
    tower = state.tower.spill(out)
    p = state.player
    if state.options.spill_to == "thrower" and state.phase == DROP:
        crates = [list(c) for c in state.seats[p].crates]
        back = []
        for d in out:
            room = next((i for i in range(len(crates)) if len(crates[i]) < CRATE), None)
            (back if room is None else crates[room]).append(d)
        seats = set_at(state.seats, p, crates=tuple(tuple(c) for c in crates))
        return (replace(state, tower=tower, seats=seats, supply=state.supply | set(back)),
                [Event("spill", {"out": list(out), "to": p})])
    state = replace(state, tower=tower, supply=state.supply | set(out))
    return state, [Event("spill", {"out": list(out), "to": "supply"})]


_HANDLERS = {
    (FILL, "place"): _place, (START, "start_player"): _start_player, (TURN, "buy"): _buy,
    (TURN, "sell"): _sell, (TURN, "buy_crate"): _buy_crate, (TURN, "pass"): _pass,
    (REFILL, "refill"): _refill, (DROP, "drop"): _drop,
}


# --- views ----------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    sc = state.final["scores"] if state.final else scores(state)
    players = [{
        "seat": p, "name": s.name, "yen": s.yen, "pos": s.pos, "crates": [list(c) for c in s.crates],
        "turn": p == state.player and state.phase == TURN, "start": p == state.start_player,
        "crate_scores": sc[p]["crates"],
    } for p, s in enumerate(state.seats)]
    return {
        "game": NAME, "phase": state.phase, "players": players, "bank": state.bank,
        "turn": state.player if state.phase in (TURN, REFILL, DROP) else None,
        "to_act": [{"actor": w.actor, "secret_for": w.secret_for} for w in pending(state)],
        "grid": [{"cell": i, "drinks": list(c), "markers": [p for p, s in enumerate(state.seats) if s.pos == i]}
                 for i, c in enumerate(state.grid)],
        "cards": [{"card": c, "yen": y} for c, y in state.prices],
        "crates_for_sale": state.crates_left, "supply": sort_drinks(state.supply),
        "tower": {"stuck": sort_drinks(state.tower.inside)}, "use_tower": state.options.use_tower,
        "flying": state.flying, "refill_cell": state.refill,
        "last": dict(state.last) if state.last else None, "turns": state.turns,
        "max_turns": state.options.max_turns,
        "final": dict(state.final) if state.final else None,
        "winners": list(state.winners), "over": state.phase == OVER,
    }


def payouts(state: State) -> dict:
    """Yen now and the score if the game ended now (each crate by its best attribute, squared)."""
    sc = state.final["scores"] if state.final else scores(state)
    return {"yen": [s.yen for s in state.seats], "projected": [x["total"] for x in sc],
            "final": state.phase == OVER, "winners": list(state.winners)}


def move_info(state: State, move: Move) -> MoveInfo:
    o = state.options
    if move.kind == "buy":
        return MoveInfo(cost=o.drink_price)
    if move.kind == "sell":
        card = move.args.get("card")
        n = len(move.args.get("drinks", ()))
        return MoveInfo(pays_up_to=state.price(card) * n if card in CARD_IDS else 0)
    if move.kind == "buy_crate":
        return MoveInfo(cost=o.crate_price)
    return MoveInfo()
