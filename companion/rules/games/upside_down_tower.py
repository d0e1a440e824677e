"""The upside-down tower betting game (rule book 002; no title in our copy).

The tower stands upside down on a crate; two empty crates wait in front of it. Two
drink colours mark the three bet spaces (in a slot of the crate 300, in the crate but
not in a slot 100, outside the crate 200: what each 100 yen bet pays on top). The
other four colours' drinks sit on their colour cards (100 yen each to start), but
each player first draws one of them at random as a stock. Players start with 1,000.

Each round: a sealed bid (only the winner pays, ties bid again); the winner may buy up
to two stocks of different colours at their cards' prices (each purchase adds 100 to
the card); everyone from the winner on bets one or two 100s on a space (one coin: at
least one drink lands there; the second coin: both do); the winner throws two drinks
of different colours from the cards into the tower and lifts it. Each drink's landing
is an observation: ``slot``, ``crate``, ``outside`` or ``stuck``. Drinks in the crate
go to the front crates and add 100 to their card; the others go back to their card.
Then everyone may sell stocks at the card prices. The game ends when the 12 front
slots are full or two colour cards are empty; all stocks are sold and the richest wins.

>>> s = setup({"names": ["A", "B", "C"]})
>>> s.phase, sorted(c for c, _ in s.cards)
('draw', ['blue', 'mint', 'purple', 'red'])
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from ...drinks import ALL_DRINKS, COLOURS
from ..engine import CHANCE, Actor, ChanceChoice, ChanceSpec, Event, IllegalMove, Move, MoveInfo, Pending, uniform
from .common import (Bidding, arg_drink, arg_drinks, arg_int, arg_text, bid_moves, check_bid, clockwise,
                     dispatch, drink, options_from_config, seat_names, set_at, sort_drinks, top)

NAME = "upside_down_tower"
TITLE = "The upside-down tower"
PLAYERS = (2, 3, 4, 5, 6)
SECRET_MOVES = frozenset({"bid"})  # sealed: made on the bidder's own phone

DRAW, BID, BID_TIE, BUY, BET, THROW, LAND, SELL, OVER = (
    "draw", "bid", "bid_tie", "buy", "bet", "throw", "land", "sell", "over")
PHASES = (DRAW, BID, BID_TIE, BUY, BET, THROW, LAND, SELL, OVER)

SPACES = ("slot", "crate", "outside")
SPOTS = SPACES + ("stuck",)
FRONT_SLOTS = 12
# Rough odds for the simulated table; a real table reports each landing.
LANDING_ODDS = {"slot": 0.25, "crate": 0.35, "outside": 0.3, "stuck": 0.1}


@dataclass(frozen=True)
class Options:
    players: int = 3
    start_yen: int = 1000
    marker_colours: tuple = ("black", "white")   # the two colours that mark the bet spaces
    card_start: int = 100            # yen on each colour card at the start
    card_rise: int = 100             # added to a card per stock bought and per drink landed in the crate
    rate_slot: int = 300             # paid per winning 100 on "in a slot"
    rate_crate: int = 100            # ... on "in the crate, not in a slot"
    rate_outside: int = 200          # ... on "outside the crate"
    coin: int = 100
    max_stocks: int = 2              # the bid winner buys up to this many, of different colours
    max_rebids: int = 3              # tied bids re-bid this often, then a coin decides
    hide_yen_while_bidding: bool = True
    max_rounds: int = 30             # a bound so that a game always ends (0: none)

    def __post_init__(self) -> None:
        m = tuple(self.marker_colours)
        if len(m) != 2 or len(set(m)) != 2 or not set(m) <= {c.value for c in COLOURS}:
            raise IllegalMove("option marker_colours must name two different colours")
        object.__setattr__(self, "marker_colours", m)

    def rate(self, space: str) -> int:
        return {"slot": self.rate_slot, "crate": self.rate_crate, "outside": self.rate_outside}[space]


@dataclass(frozen=True)
class Seat:
    name: str
    yen: int
    stocks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bet:
    seat: int
    space: str
    coins: int


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[Seat, ...]
    bank: int = 0
    phase: str = DRAW
    round: int = 1
    lid: frozenset[str] = frozenset()
    markers: frozenset[str] = frozenset()            # the bet-space markers: out of play
    cards: tuple[tuple[str, tuple[str, ...]], ...] = ()   # (colour, drinks on its card)
    prices: tuple[tuple[str, int], ...] = ()          # (colour, yen on its card)
    front: tuple[str, ...] = ()                       # the two crates before the tower
    bidding: Bidding | None = None
    tied: tuple[int, ...] = ()
    winner: int | None = None                         # this round's bid winner
    bought: tuple[str, ...] = ()                      # colours bought this round
    bets: tuple[Bet, ...] = ()
    acted: int = 0                                    # players done in the bet or sell phase
    thrown: tuple[str, ...] = ()
    landed: tuple[tuple[str, str], ...] = ()          # (drink, spot)
    last_round: Mapping[str, Any] | None = None
    final: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.seats)

    def card(self, colour: str) -> tuple[str, ...]:
        return dict(self.cards)[colour]

    def price(self, colour: str) -> int:
        return dict(self.prices)[colour]

    @property
    def order(self) -> tuple[int, ...]:
        return clockwise(self.winner or 0, self.n)


def colour_of(drink_id: str) -> str:
    return drink(drink_id).colour.value


def setup(config: Mapping[str, Any]) -> State:
    opts = options_from_config(Options, config, TITLE, PLAYERS)
    names = seat_names(config, opts.players)
    markers = frozenset(d.id for d in ALL_DRINKS if d.colour.value in opts.marker_colours)
    stock_colours = [c.value for c in COLOURS if c.value not in opts.marker_colours]
    lid = frozenset(d.id for d in ALL_DRINKS) - markers
    state = State(opts, tuple(Seat(n, opts.start_yen) for n in names), markers=markers, lid=lid,
                  cards=tuple((c, ()) for c in stock_colours),
                  prices=tuple((c, opts.card_start) for c in stock_colours),
                  bank=-opts.card_start * len(stock_colours))
    return state


# --- who acts -------------------------------------------------------------------------------

def _in_turn(state: State) -> int:
    return state.order[state.acted]


def pending(state: State) -> list[Pending]:
    if state.phase == OVER:
        return []
    if state.phase == BID:
        return [Pending(p) for p in state.bidding.waiting()]
    if state.phase in (BUY, THROW):
        return [Pending(state.winner)]
    if state.phase in (BET, SELL):
        return [Pending(_in_turn(state))]
    return [Pending(CHANCE)]


def is_over(state: State) -> bool:
    return state.phase == OVER


def _waiting(state: State) -> str:
    return {DRAW: "each player's random stock drink", BID: "the sealed bids",
            BID_TIE: "a coin to decide the tied bid", BUY: "the bid winner to buy stocks or go on",
            BET: "a bet or a pass", THROW: "the bid winner to throw two drinks",
            LAND: "where each thrown drink landed", SELL: "a player to sell stocks or go on",
            OVER: "nothing"}[state.phase]


def _throwable(state: State) -> list[str]:
    return [c for c, ds in state.cards if ds]


def legal_moves(state: State, actor: Actor) -> list[Move]:
    if actor == CHANCE:
        spec = chance(state)
        return [m for m, _ in spec.outcomes] if spec is not None else []
    if actor not in [w.actor for w in pending(state)]:
        return []
    seat, o = state.seats[actor], state.options
    if state.phase == BID:
        return bid_moves(actor, seat.yen)
    if state.phase == BUY:
        moves = [Move("buy_stock", actor, {"drink": d}) for c, ds in state.cards
                 if c not in state.bought and state.price(c) <= seat.yen for d in ds]
        return moves + [Move("done", actor)]
    if state.phase == BET:
        moves = [Move("bet", actor, {"space": s, "coins": k}) for s in SPACES for k in (1, 2)
                 if k * o.coin <= seat.yen]
        return moves + [Move("pass", actor)]
    if state.phase == THROW:
        on_cards = [d for _, ds in state.cards for d in ds]
        return [Move("throw", actor, {"drinks": (a, b)}) for i, a in enumerate(on_cards)
                for b in on_cards[i + 1:] if colour_of(a) != colour_of(b)]
    if state.phase == SELL:
        return [Move("sell", actor, {"drink": d}) for d in seat.stocks] + [Move("done", actor)]
    return []


def chance(state: State) -> ChanceSpec | None:
    if state.phase == DRAW:
        return uniform(Move("draw", CHANCE, {"drink": d}) for d in sort_drinks(state.lid))
    if state.phase == BID_TIE:
        return uniform(Move("tie_break", CHANCE, {"seat": p}) for p in state.tied)
    if state.phase == LAND:
        done = {d for d, _ in state.landed}
        left = [d for d in state.thrown if d not in done]
        return ChanceChoice(tuple((Move("land", CHANCE, {"drink": d, "spot": s}), LANDING_ODDS[s] / len(left))
                                  for d in left for s in SPOTS))
    return None


# --- applying moves ---------------------------------------------------------------------------

def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """The new state and what happened; IllegalMove (state untouched) if not allowed now."""
    return dispatch(state, move, over=is_over(state), pending=pending(state), phase=state.phase,
                    handlers=_HANDLERS, names=[s.name for s in state.seats], waiting=_waiting(state))


def _set_card(state: State, colour: str, drinks: tuple[str, ...]) -> tuple:
    return tuple((c, tuple(sort_drinks(drinks)) if c == colour else ds) for c, ds in state.cards)


def _raise_price(state: State, colour: str, by: int) -> State:
    prices = tuple((c, y + by if c == colour else y) for c, y in state.prices)
    return replace(state, prices=prices, bank=state.bank - by)


def _draw(state: State, move: Move) -> tuple[State, list[Event]]:
    d = arg_drink(move)
    if d not in state.lid:
        raise IllegalMove(f"{d} is not in the box lid (drawn already, or a bet-space marker colour)")
    p = sum(len(s.stocks) for s in state.seats)
    seats = set_at(state.seats, p, stocks=(d,))
    state = replace(state, seats=seats, lid=state.lid - {d})
    events = [Event("drew", {"seat": p, "drink": d})]
    if p + 1 < state.n:
        return state, events
    cards = tuple((c, tuple(x for x in sort_drinks(state.lid) if colour_of(x) == c)) for c, _ in state.cards)
    state = replace(state, cards=cards, lid=frozenset())
    return _start_round(state, events)


def _start_round(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    o = state.options
    if o.max_rounds and state.round > o.max_rounds:
        return _finish(state, "round_limit", events)
    state = replace(state, phase=BID, bidding=Bidding(tuple(range(state.n))), winner=None, bought=(), bets=(),
                    acted=0, thrown=(), landed=(), tied=())
    return state, events + [Event("round_started", {"round": state.round})]


def _bid(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    amount = check_bid(move, state.seats[p].yen)
    bidding = state.bidding.place(p, amount)
    events = [Event("bid_placed", {"seat": p})]
    if not bidding.complete():
        return replace(state, bidding=bidding), events
    bids, best = bidding.opened()
    events.append(Event("bids_opened", {"bids": {str(k): v for k, v in bids.items()}, "highest": list(best)}))
    if len(best) == 1:
        return _won(replace(state, bidding=bidding), best[0], events)
    if bidding.rebids < state.options.max_rebids:
        return replace(state, bidding=bidding.rebid(best)), events + [Event("rebid", {"seats": list(best)})]
    return replace(state, bidding=bidding, phase=BID_TIE, tied=best), events


def _tie_break(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.args.get("seat")
    if p not in state.tied or isinstance(p, bool):
        raise IllegalMove(f"'seat' must be one of the tied seats {list(state.tied)}, not {p!r}")
    return _won(state, p, [Event("tie_break", {"seat": p})])


def _won(state: State, p: int, events: list[Event]) -> tuple[State, list[Event]]:
    amount = state.bidding.amount(p)
    seats = set_at(state.seats, p, yen=state.seats[p].yen - amount)
    state = replace(state, seats=seats, bank=state.bank + amount, winner=p, bidding=None, tied=(), phase=BUY)
    return state, events + [Event("bid_won", {"seat": p, "paid": amount})]


def _buy_stock(state: State, move: Move) -> tuple[State, list[Event]]:
    p, o = move.player, state.options
    d = arg_drink(move)
    c = colour_of(d)
    if c not in dict(state.cards) or d not in state.card(c):
        raise IllegalMove(f"{d} is not on a colour card; stocks are the drinks on the colour cards")
    if c in state.bought:
        raise IllegalMove(f"you bought a {c} stock already this round; a second stock must be another colour")
    cost = state.price(c)
    if cost > state.seats[p].yen:
        raise IllegalMove(f"a {c} stock costs {cost} yen (the yen on its card) and you have {state.seats[p].yen}")
    seat = state.seats[p]
    seats = set_at(state.seats, p, yen=seat.yen - cost, stocks=seat.stocks + (d,))
    state = replace(state, seats=seats, bank=state.bank + cost, bought=state.bought + (c,),
                    cards=_set_card(state, c, tuple(x for x in state.card(c) if x != d)))
    state = _raise_price(state, c, o.card_rise)
    events = [Event("bought_stock", {"seat": p, "drink": d, "paid": cost})]
    if len(state.bought) >= o.max_stocks:
        return _to_bets(state, events)
    return state, events


def _done_buying(state: State, move: Move) -> tuple[State, list[Event]]:
    return _to_bets(state, [Event("done_buying", {"seat": move.player})])


def _to_bets(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    return replace(state, phase=BET, acted=0), events


def _bet(state: State, move: Move) -> tuple[State, list[Event]]:
    p, o = move.player, state.options
    space = arg_text(move, "space", SPACES)
    k = arg_int(move, "coins")
    if k not in (1, 2):
        raise IllegalMove("bet one or two 100-yen coins")
    if k * o.coin > state.seats[p].yen:
        raise IllegalMove(f"{k} coin(s) cost {k * o.coin} yen and you have {state.seats[p].yen}")
    seats = set_at(state.seats, p, yen=state.seats[p].yen - k * o.coin)
    state = replace(state, seats=seats, bets=state.bets + (Bet(p, space, k),))
    return _next_bettor(state, [Event("bet", {"seat": p, "space": space, "coins": k})])


def _pass_bet(state: State, move: Move) -> tuple[State, list[Event]]:
    return _next_bettor(state, [Event("passed", {"seat": move.player})])


def _next_bettor(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    state = replace(state, acted=state.acted + 1)
    if state.acted < state.n:
        return state, events
    if len(_throwable(state)) < 2:
        # Fewer than two colours left on the cards: nothing can be thrown; bets go back.
        seats = list(state.seats)
        for b in state.bets:
            seats[b.seat] = replace(seats[b.seat], yen=seats[b.seat].yen + b.coins * state.options.coin)
        state = replace(state, seats=tuple(seats), bets=(), last_round={"round": state.round, "thrown": [],
                                                                        "skipped": True})
        return _to_selling(state, events + [Event("no_throw", {"why": "fewer than two colours on the cards"})])
    return replace(state, phase=THROW), events


def _throw(state: State, move: Move) -> tuple[State, list[Event]]:
    drinks = arg_drinks(move)
    if len(drinks) != 2:
        raise IllegalMove("throw exactly two drinks")
    for d in drinks:
        c = colour_of(d)
        if c not in dict(state.cards) or d not in state.card(c):
            raise IllegalMove(f"{d} is not on a colour card; throw two drinks from the colour cards")
    if colour_of(drinks[0]) == colour_of(drinks[1]):
        raise IllegalMove("the two drinks must be of different colours")
    cards = state.cards
    for d in drinks:
        cards = tuple((c, tuple(x for x in ds if x != d)) for c, ds in cards)
    state = replace(state, cards=cards, thrown=tuple(drinks), landed=(), phase=LAND)
    return state, [Event("thrown", {"seat": move.player, "drinks": list(drinks)})]


def _land(state: State, move: Move) -> tuple[State, list[Event]]:
    d = arg_drink(move)
    spot = arg_text(move, "spot", SPOTS)
    done = {x for x, _ in state.landed}
    if d not in state.thrown or d in done:
        left = [x for x in state.thrown if x not in done]
        raise IllegalMove(f"{d} is not a thrown drink still to land; waiting for: {', '.join(left)}")
    state = replace(state, landed=state.landed + ((d, spot),))
    events = [Event("landed", {"drink": d, "spot": spot})]
    if len(state.landed) < len(state.thrown):
        return state, events
    return _settle(state, events)


def settle_bets(state: State) -> dict:
    """What each bet returns: per coin the stake plus the space's rate if it won."""
    o = state.options
    counts = {s: sum(1 for _, spot in state.landed if spot == s) for s in SPACES}
    back = [0] * state.n
    lines = []
    to_bank = 0
    for b in state.bets:
        won_coins = (counts[b.space] >= 1) + (b.coins == 2 and counts[b.space] >= 2)
        got = won_coins * (o.coin + o.rate(b.space))
        back[b.seat] += got
        to_bank += (b.coins - won_coins) * o.coin
        lines.append({"seat": b.seat, "space": b.space, "coins": b.coins, "won_coins": won_coins, "paid": got})
    return {"counts": counts, "paid": back, "lost_to_bank": to_bank, "bets": lines}


def _settle(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    o = state.options
    result = settle_bets(state)
    won_from_bank = sum(result["paid"]) - sum(line["won_coins"] * o.coin for line in result["bets"])
    seats = tuple(replace(s, yen=s.yen + result["paid"][p]) for p, s in enumerate(state.seats))
    state = replace(state, seats=seats, bets=(), bank=state.bank - won_from_bank + result["lost_to_bank"])
    front, cards = state.front, state.cards
    placed, returned = [], []
    for d, spot in state.landed:
        c = colour_of(d)
        if spot in ("slot", "crate") and len(front) < FRONT_SLOTS:
            front = front + (d,)
            placed.append(d)
            state = _raise_price(replace(state, cards=cards), c, o.card_rise)
            cards = state.cards
        else:
            cards = tuple((col, tuple(sort_drinks(ds + (d,))) if col == c else ds) for col, ds in cards)
            returned.append(d)
    last = {"round": state.round, "thrown": list(state.thrown), "landed": [list(x) for x in state.landed],
            **result, "to_front": placed, "back_to_cards": returned}
    state = replace(state, front=front, cards=cards, thrown=(), last_round=last)
    return _to_selling(state, events + [Event("round_scored", last)])


def _to_selling(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    return _skip_sellers(replace(state, phase=SELL, acted=0, thrown=()), events)


def _skip_sellers(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    while state.acted < state.n and not state.seats[_in_turn(state)].stocks:
        state = replace(state, acted=state.acted + 1)
    if state.acted < state.n:
        return state, events
    return _end_of_round(state, events)


def _sell(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    d = arg_drink(move)
    seat = state.seats[p]
    if d not in seat.stocks:
        raise IllegalMove(f"{d} is not one of your stocks")
    c = colour_of(d)
    got = state.price(c)
    seats = set_at(state.seats, p, yen=seat.yen + got, stocks=tuple(x for x in seat.stocks if x != d))
    state = replace(state, seats=seats, bank=state.bank - got, cards=_set_card(state, c, state.card(c) + (d,)))
    events = [Event("sold", {"seat": p, "drink": d, "got": got})]
    if not state.seats[p].stocks:
        return _skip_sellers(replace(state, acted=state.acted + 1), events)
    return state, events


def _done_selling(state: State, move: Move) -> tuple[State, list[Event]]:
    return _skip_sellers(replace(state, acted=state.acted + 1), [Event("done_selling", {"seat": move.player})])


def end_reason(state: State) -> str | None:
    if len(state.front) >= FRONT_SLOTS:
        return "front_crates_full"
    if sum(1 for _, ds in state.cards if not ds) >= 2:
        return "two_cards_empty"
    return None


def _end_of_round(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    reason = end_reason(state)
    if reason:
        return _finish(state, reason, events)
    return _start_round(replace(state, round=state.round + 1), events)


def _finish(state: State, reason: str, events: list[Event]) -> tuple[State, list[Event]]:
    seats, cards, bank, sales = [], state.cards, state.bank, []
    for p, s in enumerate(state.seats):
        got = sum(state.price(colour_of(d)) for d in s.stocks)
        for d in s.stocks:
            c = colour_of(d)
            cards = tuple((col, tuple(sort_drinks(ds + (d,))) if col == c else ds) for col, ds in cards)
        bank -= got
        sales.append({"seat": p, "sold": list(s.stocks), "got": got})
        seats.append(replace(s, yen=s.yen + got, stocks=()))
    winners = top([s.yen for s in seats])
    final = {"reason": reason, "final_sale": sales, "yen": [s.yen for s in seats]}
    state = replace(state, seats=tuple(seats), cards=cards, bank=bank, phase=OVER, final=final, winners=winners,
                    bidding=None)
    return state, events + [Event("game_over", {"winners": list(winners), **final})]


_HANDLERS = {
    (DRAW, "draw"): _draw, (BID, "bid"): _bid, (BID_TIE, "tie_break"): _tie_break,
    (BUY, "buy_stock"): _buy_stock, (BUY, "done"): _done_buying,
    (BET, "bet"): _bet, (BET, "pass"): _pass_bet, (THROW, "throw"): _throw, (LAND, "land"): _land,
    (SELL, "sell"): _sell, (SELL, "done"): _done_selling,
}


# --- views ----------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    o = state.options
    hide = o.hide_yen_while_bidding and state.phase in (BID, BID_TIE)
    acting = [w.actor for w in pending(state)]
    players = []
    for p, s in enumerate(state.seats):
        players.append({
            "seat": p, "name": s.name, "yen": s.yen if not hide or viewer == p else None,
            "stocks": list(s.stocks),
            "has_bid": bool(state.bidding and state.bidding.has_bid(p)),
            "bid": state.bidding.amount(p) if state.bidding and viewer == p else None,
            "bets": [{"space": b.space, "coins": b.coins} for b in state.bets if b.seat == p],
            "bid_winner": p == state.winner, "turn": p in acting,
        })
    return {
        "game": NAME, "phase": state.phase, "round": state.round, "players": players,
        "turn": acting[0] if len(acting) == 1 and acting[0] != CHANCE else None,
        "bank": state.bank if not hide else None,
        "to_act": [{"actor": w.actor, "secret_for": w.secret_for} for w in pending(state)],
        "bidding": state.bidding.view(viewer) if state.bidding else None, "tied": list(state.tied),
        "bid_winner": state.winner, "bought_colours": list(state.bought),
        "colour_cards": [{"colour": c, "price": state.price(c), "drinks": list(ds)} for c, ds in state.cards],
        "spaces": [{"space": s, "rate": o.rate(s),
                    "bets": [{"seat": b.seat, "coins": b.coins} for b in state.bets if b.space == s]}
                   for s in SPACES],
        "markers": list(o.marker_colours), "front": list(state.front), "front_slots": FRONT_SLOTS,
        "thrown": list(state.thrown), "landed": [{"drink": d, "spot": s} for d, s in state.landed],
        "lid": sort_drinks(state.lid), "tower": {"stuck": [], "upside_down": True},
        "last_round": dict(state.last_round) if state.last_round else None,
        "final": dict(state.final) if state.final else None,
        "winners": list(state.winners), "over": state.phase == OVER,
    }


def payouts(state: State) -> dict:
    """Yen now; what each player would have after selling all stocks now; the best case of
    the bets in play."""
    o = state.options
    worth = [s.yen + sum(state.price(colour_of(d)) for d in s.stocks) for s in state.seats]
    best = list(worth)
    for b in state.bets:
        best[b.seat] += b.coins * (o.coin + o.rate(b.space))
    hide = o.hide_yen_while_bidding and state.phase in (BID, BID_TIE)
    return {"yen": None if hide else [s.yen for s in state.seats], "worth": None if hide else worth,
            "best_case": None if hide else best, "final": state.phase == OVER, "winners": list(state.winners)}


def move_info(state: State, move: Move) -> MoveInfo:
    o = state.options
    if move.kind == "bid":
        return MoveInfo(cost=int(move.args.get("amount", 0)))
    if move.kind == "buy_stock":
        d = move.args.get("drink")
        return MoveInfo(cost=state.price(colour_of(d)) if isinstance(d, str) else 0)
    if move.kind == "bet":
        k, space = move.args.get("coins", 1), move.args.get("space", "crate")
        return MoveInfo(cost=k * o.coin, pays_up_to=k * (o.coin + o.rate(space)) if space in SPACES else 0)
    if move.kind == "sell":
        d = move.args.get("drink")
        return MoveInfo(pays_up_to=state.price(colour_of(d)) if isinstance(d, str) else 0)
    return MoveInfo()
