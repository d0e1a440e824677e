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
squared times 100 yen. The "strategic" variant skips the tower. The market's cells and the
crates' scores: chocolate_market.py.

>>> state = setup({"names": ["Aki", "Ben"]})
>>> state.phase, chance(state).outcomes[0][0].args
('fill', {'cell': 0, 'drink': 'black-stubby_can'})
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal, Mapping

from pydantic import model_validator

from ...drinks import ALL_DRINKS, CARD_IDS
from ..declared import Declared, Kind, Phase, nothing_hidden
from ..engine import CHANCE, ChanceChoice, ChanceSpec, Composite, Event, IllegalMove, Move, MoveInfo, uniform
from ..options import Flag, GameOptions, Items, Players, Whole, WholeIn
from ..tower import Tower
from .chocolate_market import (CENTRE, CRATE, FILL_ORDER, adjacent, by_card, crate_score,  # noqa: F401 (re-exported)
                               dice_odds, dice_refill, seat_score, set_cell, stow)
from .common import (arg_card, arg_drink, arg_drinks, arg_int, best_attribute, drink, matches, seat_names,
                     set_at, sort_drinks, top)
from .tower_turns import (config_start_player, drawn_start_player, spill, start_player_outcomes, the_player,
                          throw_drop, to_act)

NAME = "chocolate_milk"
TITLE = "CHOCOLATE MILK"
PLAYERS = (2, 3, 4, 5, 6)
RULE = "002 CHOCOLATE MILK"

FILL, START, TURN, REFILL, DROP, OVER = "fill", "start", "turn", "refill", "drop", "over"


class Options(GameOptions):
    # Rules version 1 put the yen on the cards on every purchase, also when the drink stuck.
    EARLIER = {1: {"rise_when": "buy"}}

    players: Players = 3
    start_yen: Whole = 500
    drink_price: Whole = 100
    card_rise: Whole = 100                      # yen put on the drink's colour card and on its shape card
    rise_when: Literal["out", "buy"] = "out"    # "out": only if the bought drink came out; "buy": on every purchase
    crate_price: Whole = 200
    crates_for_sale: WholeIn(-1, 6) = -1        # -1: the crates nobody got at the start (6 - players)
    use_tower: Flag = True                      # False: the "strategic" variant, the drink is yours at once
    win_yen: Whole = 2000
    same_kind: Whole = 6                        # six drinks of one colour or shape in a crate end the game
    score_unit: Whole = 100
    spill_to: Literal["supply", "thrower"] = "supply"   # a drink falling out on its own
    refill: Literal["draw", "dice"] = "draw"    # "draw": a random drink from the supply; "dice": two dice
    colour_row: Items(str) = CARD_IDS[:6]       # the colour cards left to right (for the dice)
    shape_row: Items(str) = CARD_IDS[6:]        # the shape cards left to right
    max_turns: Whole = 300                      # a bound so that a game always ends (0: none)

    @model_validator(mode="after")
    def _rows(self) -> "Options":
        if sorted(self.colour_row) != sorted(CARD_IDS[:6]) or sorted(self.shape_row) != sorted(CARD_IDS[6:]):
            raise ValueError("options colour_row and shape_row must list the six colours and the six shapes")
        return self


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


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    spare = 6 - opts.players if opts.crates_for_sale < 0 else opts.crates_for_sale
    state = State(opts, tuple(Seat(n, opts.start_yen) for n in names), crates_left=spare)
    first = config_start_player(config, opts.players)
    if first is not None:
        state = replace(state, start_player=first, player=first, start_known=True)
    return state


def _filled(state: State) -> int:
    return sum(len(c) for c in state.grid)


# --- who acts and what they may do ---------------------------------------------------------------

def _can_buy_here(state: State, p: int) -> bool:
    seat = state.seats[p]
    return seat.yen >= state.options.drink_price and any(len(c) < CRATE for c in seat.crates)


def _buys(state: State, p: int) -> list[Move]:
    seat = state.seats[p]
    if not _can_buy_here(state, p):
        return []
    rooms = [i for i, c in enumerate(seat.crates) if len(c) < CRATE]
    return [Move("buy", p, {"to": cell, "drink": d, "crate": i})
            for cell in range(9) if adjacent(seat.pos, cell) for d in state.grid[cell] for i in rooms]


def _sells(state: State, p: int) -> list[Move]:
    """A sale of every drink that matches a card and, where there are several, of each alone."""
    moves = []
    for card, fits in by_card([d for c in state.seats[p].crates for d in c]):
        moves.append(Move("sell", p, {"card": card, "drinks": tuple(fits)}))
        if len(fits) > 1:
            moves += [Move("sell", p, {"card": card, "drinks": (d,)}) for d in fits]
    return moves


def _crate_buys(state: State, p: int) -> list[Move]:
    can = state.crates_left > 0 and state.seats[p].yen >= state.options.crate_price
    return [Move("buy_crate", p)] if can else []


def _none_possible(state: State, p: int) -> bool:
    seat = state.seats[p]
    buys = _can_buy_here(state, p) and any(state.grid[c] for c in range(9) if adjacent(seat.pos, c))
    return not (buys or any(seat.crates) or _crate_buys(state, p))  # any drink of yours can be sold


def _passes(state: State, p: int) -> list[Move]:
    return [Move("pass", p)] if _none_possible(state, p) else []


def _sale_picks(state: State, seat: int) -> list[Composite]:
    """The bigger form of ``sell``: any of your drinks that match one card, one entry per card."""
    mine = sort_drinks(d for c in state.seats[seat].crates for d in c)
    return [Composite("sell", {"arg": "drinks", "from": fits, "min": 1, "max": len(fits)}, base={"card": card},
                      pays={str(k): state.price(card) * k for k in range(1, len(fits) + 1)})
            for card, fits in by_card(mine)]


def _fill_outcomes(state: State) -> ChanceSpec:
    cell = FILL_ORDER[_filled(state)]
    return uniform(Move("place", CHANCE, {"cell": cell, "drink": d}) for d in sort_drinks(state.supply))


def _refill_outcomes(state: State) -> ChanceSpec:
    o = state.options
    if o.refill == "dice":
        odds = dice_odds(state.supply, o.colour_row, o.shape_row)
        return ChanceChoice(tuple((Move("refill", CHANCE, {"drink": d}), odds[d]) for d in sort_drinks(odds)))
    return uniform(Move("refill", CHANCE, {"drink": d}) for d in sort_drinks(state.supply))


def _to_move(state: State) -> str:
    return f"{state.seats[state.player].name} to move and buy, sell, or buy a crate"


# --- applying moves ---------------------------------------------------------------------------

def _place(state: State, move: Move) -> tuple[State, list[Event]]:
    d = arg_drink(move)
    cell = FILL_ORDER[_filled(state)]
    if move.args.get("cell", cell) != cell:
        raise IllegalMove(f"the next drink goes on card {cell}")
    if d not in state.supply:
        raise IllegalMove(f"{d} is not in the supply")
    state = replace(state, grid=set_cell(state.grid, cell, state.grid[cell] + (d,)), supply=state.supply - {d})
    if _filled(state) == len(FILL_ORDER):
        state = replace(state, phase=TURN if state.start_known else START)
    return state, [Event("placed", {"cell": cell, "drink": d})]


def _start_player(state: State, move: Move) -> tuple[State, list[Event]]:
    p = drawn_start_player(state, move)
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
                    grid=set_cell(state.grid, cell, tuple(x for x in state.grid[cell] if x != d)),
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
    state = replace(state, grid=set_cell(state.grid, cell, state.grid[cell] + (d,)), supply=state.supply - {d},
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
    crates, back = stow(state.seats[p].crates, out, state.flying, state.into)
    seats = set_at(state.seats, p, crates=crates)
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
    if not _none_possible(state, move.player):
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
    return [seat_score(s.crates, s.yen, state.options.score_unit) for s in state.seats]


def _finish(state: State, reason: str, events: list[Event]) -> tuple[State, list[Event]]:
    sc = scores(state)
    seats = tuple(replace(s, yen=sc[p]["total"]) for p, s in enumerate(state.seats))
    winners = top([s.yen for s in seats])
    final = {"reason": reason, "scores": sc}
    state = replace(state, seats=seats, bank=state.bank - sum(x["crate_yen"] for x in sc), phase=OVER,
                    final=final, winners=winners)
    return state, events + [Event("game_over", {"winners": list(winners), **final})]


def _spill_to_thrower(state: State, out: tuple[str, ...]) -> State | None:
    """With ``spill_to`` "thrower", while a drink is being thrown: into the thrower's crates (any
    with room), the rest back to the supply."""
    if state.options.spill_to != "thrower" or state.phase != DROP:
        return None
    crates, back = stow(state.seats[state.player].crates, out)
    return replace(state, seats=set_at(state.seats, state.player, crates=crates), supply=state.supply | set(back))


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
        "to_act": to_act(GAME.pending(state)),
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


def _buy_info(state: State, move: Move) -> MoveInfo:
    return MoveInfo(cost=state.options.drink_price, why="why.chocolate_milk.buy")


def _sell_info(state: State, move: Move) -> MoveInfo:
    card = move.args.get("card")
    n = len(move.args.get("drinks", ()))
    if card not in CARD_IDS:
        return MoveInfo()
    return MoveInfo(pays_up_to=state.price(card) * n, why="why.chocolate_milk.sell",
                    params={"card": card, "n": n, "unit_price": state.price(card)})


def _crate_info(state: State, move: Move) -> MoveInfo:
    return MoveInfo(cost=state.options.crate_price, why="why.chocolate_milk.crate")


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(FILL, "the market's drinks to be drawn", outcomes=_fill_outcomes,
              ends="when each outer card holds one drink and the centre two"),
        Phase(START, "the start player to be drawn", outcomes=start_player_outcomes, ends="when it is drawn"),
        Phase(TURN, _to_move, acting=the_player,
              ends="after a sale, a crate bought or a pass; a purchase goes on to the refill"),
        Phase(REFILL, "a new drink for the card just bought from", outcomes=_refill_outcomes,
              ends="when the card has its new drink; the drink bought is thrown (or is yours at once)"),
        Phase(DROP, "whether the bought drink came out of the tower", outcomes=throw_drop,
              ends="when the table says what came out"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("place", _place, f"{RULE}: VORBEREITUNG", phases=(FILL,), chance=True),
        Kind("start_player", _start_player, f"{RULE}: VORBEREITUNG", phases=(START,), chance=True),
        Kind("buy", _buy, f"{RULE}: SPIELABLAUF", phases=(TURN,), listed=_buys, info=_buy_info),
        Kind("sell", _sell, f"{RULE}: SPIELABLAUF", phases=(TURN,), listed=_sells, compose=_sale_picks,
             info=_sell_info),
        Kind("buy_crate", _buy_crate, f"{RULE}: SPIELABLAUF", phases=(TURN,), listed=_crate_buys, info=_crate_info),
        Kind("pass", _pass, f"{RULE}: SPIELABLAUF", phases=(TURN,), listed=_passes),
        Kind("refill", _refill, f"{RULE}: NACHFÜLLEN", phases=(REFILL,), chance=True),
        Kind("drop", _drop, f"{RULE}: SPIELABLAUF", phases=(DROP,), chance=True),
        Kind("spill", lambda state, move: spill(state, move, "supply", _spill_to_thrower), f"{RULE}: SPIELABLAUF",
             chance=True, anytime=True),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: [s.name for s in state.seats],
    redraw=nothing_hidden,  # the market, the supply, the crates and the cards' yen are open on the table
    playout_cost=lambda state: 75,  # a random playout takes about 75 units of ~0.3 ms, 2 to 6 seats alike
    # what a person copies onto the real table (drinks into the tower or a crate; cards taken)
    board_events=frozenset({"placed", "refilled", "bought", "received", "sold", "bought_crate"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
