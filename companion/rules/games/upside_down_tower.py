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

The options and the state are in upside_down_tower_state.py, the sealed bid in sealed.py; this
module declares the phases and the moves (rules/declared.py).

>>> s = setup({"names": ["A", "B", "C"]})
>>> s.phase, sorted(c for c, _ in s.cards)
('draw', ['blue', 'mint', 'purple', 'red'])
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ...drinks import ALL_DRINKS, COLOURS
from ..declared import Declared, Kind, Phase
from ..engine import CHANCE, ChanceChoice, ChanceSpec, Event, IllegalMove, Move, MoveInfo, Pending, uniform
from .common import arg_drink, arg_drinks, arg_int, arg_text, seat_names, set_at, sort_drinks, top
from .sealed import Bidding, SealedBid, redraw_bids
from .tower_turns import to_act
from .upside_down_tower_state import (BET, BID, BID_TIE, BUY, DRAW, FRONT_SLOTS, LAND, LANDING_ODDS, OVER, SELL,
                                      SPACES, SPOTS, THROW, Bet, Options, Seat, State, colour_of, end_reason,
                                      raise_price, set_card, settle_bets)

NAME = "upside_down_tower"
TITLE = "The upside-down tower"
PLAYERS = (2, 3, 4, 5, 6)
RULE = "002 The upside-down tower"

def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    markers = frozenset(d.id for d in ALL_DRINKS if d.colour.value in opts.marker_colours)
    stock_colours = [c.value for c in COLOURS if c.value not in opts.marker_colours]
    lid = frozenset(d.id for d in ALL_DRINKS) - markers
    state = State(opts, tuple(Seat(n, opts.start_yen) for n in names), markers=markers, lid=lid,
                  cards=tuple((c, ()) for c in stock_colours),
                  prices=tuple((c, opts.card_start) for c in stock_colours),
                  bank=-opts.card_start * len(stock_colours))
    return state


# --- who acts, and what chance may bring --------------------------------------------------------

def _in_turn(state: State) -> int:
    return state.order[state.acted]


def _bid_winner(state: State) -> list[Pending]:
    return [Pending(state.winner)]


def _next_in_turn(state: State) -> list[Pending]:
    return [Pending(_in_turn(state))]


def _throwable(state: State) -> list[str]:
    return [c for c, ds in state.cards if ds]


def _draws(state: State) -> ChanceSpec:
    return uniform(Move("draw", CHANCE, {"drink": d}) for d in sort_drinks(state.lid))


def _landings(state: State) -> ChanceSpec:
    done = {d for d, _ in state.landed}
    left = [d for d in state.thrown if d not in done]
    return ChanceChoice(tuple((Move("land", CHANCE, {"drink": d, "spot": s}), LANDING_ODDS[s] / len(left))
                              for d in left for s in SPOTS))


# --- the moves a seat is offered --------------------------------------------------------------------

def _stock_buys(state: State, seat: int) -> list[Move]:
    return [Move("buy_stock", seat, {"drink": d}) for c, ds in state.cards
            if c not in state.bought and state.price(c) <= state.seats[seat].yen for d in ds]


def _bets(state: State, seat: int) -> list[Move]:
    return [Move("bet", seat, {"space": s, "coins": k}) for s in SPACES for k in (1, 2)
            if k * state.options.coin <= state.seats[seat].yen]


def _throws(state: State, seat: int) -> list[Move]:
    on_cards = [d for _, ds in state.cards for d in ds]
    return [Move("throw", seat, {"drinks": (a, b)}) for i, a in enumerate(on_cards)
            for b in on_cards[i + 1:] if colour_of(a) != colour_of(b)]


def _sales(state: State, seat: int) -> list[Move]:
    return [Move("sell", seat, {"drink": d}) for d in state.seats[seat].stocks]


def _one(kind: str):
    return lambda state, seat: [Move(kind, seat)]


# --- applying moves ---------------------------------------------------------------------------

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
                    cards=set_card(state, c, tuple(x for x in state.card(c) if x != d)))
    state = raise_price(state, c, o.card_rise)
    events = [Event("bought_stock", {"seat": p, "drink": d, "paid": cost})]
    if len(state.bought) >= o.max_stocks:
        return _to_bets(state, events)
    return state, events


def _done(state: State, move: Move) -> tuple[State, list[Event]]:
    if state.phase == BUY:
        return _to_bets(state, [Event("done_buying", {"seat": move.player})])
    return _skip_sellers(replace(state, acted=state.acted + 1), [Event("done_selling", {"seat": move.player})])


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
            state = raise_price(replace(state, cards=cards), c, o.card_rise)
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
    state = replace(state, seats=seats, bank=state.bank - got, cards=set_card(state, c, state.card(c) + (d,)))
    events = [Event("sold", {"seat": p, "drink": d, "got": got})]
    if not state.seats[p].stocks:
        return _skip_sellers(replace(state, acted=state.acted + 1), events)
    return state, events


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
        "to_act": to_act(pending(state)),
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


def _stock_info(state: State, move: Move) -> MoveInfo:
    colour = colour_of(move.args["drink"])
    return MoveInfo(cost=state.price(colour), why="why.upside_down_tower.stock", params={"card": colour})


def _bet_info(state: State, move: Move) -> MoveInfo:
    k, space = move.args.get("coins", 1), move.args.get("space", "crate")
    o = state.options
    if space not in SPACES:
        return MoveInfo(cost=k * o.coin)
    return MoveInfo(cost=k * o.coin, pays_up_to=k * (o.coin + o.rate(space)), why="why.upside_down_tower.bet",
                    params={"coins": k, "coin_price": o.coin, "rate": o.rate(space), "space": space})


def _sale_info(state: State, move: Move) -> MoveInfo:
    colour = colour_of(move.args["drink"])
    return MoveInfo(pays_up_to=state.price(colour), why="why.upside_down_tower.sell", params={"card": colour})


# --- the declaration --------------------------------------------------------------------------

def _playout_cost(state: State) -> int:
    """A random playout's work in the session's units (a TOKYO METRO seat-round, about 0.25 ms): a
    round takes about 5 plus one a seat, and a round fills a little more than one front slot."""
    rounds = -(-(FRONT_SLOTS - len(state.front)) * 10 // 12)
    if state.options.max_rounds:
        rounds = min(rounds, state.options.max_rounds - state.round + 1)
    return max(1, rounds) * (state.n + 5)


def _bid_won(state: State, p: int) -> State:
    return replace(state, winner=p, phase=BUY)


SEALED = SealedBid("bid", f"{RULE}: SPIELABLAUF, Bietphase", "bid_won", _bid_won)

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(DRAW, "each player's random stock drink", outcomes=_draws,
              ends="when every player has drawn: the rest go onto their colour cards"),
        *SEALED.phases,
        Phase(BUY, "the bid winner to buy stocks or go on", acting=_bid_winner,
              ends="when the winner has bought the most stocks or is done"),
        Phase(BET, "a bet or a pass", acting=_next_in_turn,
              ends="when everyone from the bid winner on has bet or passed"),
        Phase(THROW, "the bid winner to throw two drinks", acting=_bid_winner, ends="when two drinks are thrown"),
        Phase(LAND, "where each thrown drink landed", outcomes=_landings,
              ends="when both drinks have landed: the bets are paid"),
        Phase(SELL, "a player to sell stocks or go on", acting=_next_in_turn,
              ends="when everyone with stocks is done: a new round, or the end"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("draw", _draw, f"{RULE}: VORBEREITUNG", phases=(DRAW,), chance=True),
        *SEALED.kinds,
        Kind("buy_stock", _buy_stock, f"{RULE}: SPIELABLAUF, Bietphase", phases=(BUY,), listed=_stock_buys,
             info=_stock_info),
        Kind("bet", _bet, f"{RULE}: SPIELABLAUF, Wettphase", phases=(BET,), listed=_bets, info=_bet_info),
        Kind("pass", _pass_bet, f"{RULE}: SPIELABLAUF, Wettphase", phases=(BET,), listed=_one("pass")),
        Kind("throw", _throw, f"{RULE}: SPIELABLAUF, Wettphase", phases=(THROW,), listed=_throws),
        Kind("land", _land, f"{RULE}: SPIELABLAUF, Wettphase", phases=(LAND,), chance=True),
        Kind("sell", _sell, f"{RULE}: SPIELABLAUF, Verkaufsphase", phases=(SELL,), listed=_sales, info=_sale_info),
        Kind("done", _done, f"{RULE}: SPIELABLAUF, Bietphase and Verkaufsphase", phases=(BUY, SELL),
             listed=_one("done")),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: [s.name for s in state.seats],
    # Hidden from a viewer: the other seats' sealed bids. Their yen are hidden too while bidding,
    # but they are what everyone saw after the last selling phase, so nothing there to draw again.
    redraw=redraw_bids, playout_cost=_playout_cost,
    # what a person copies onto the real table (drinks into the tower or a crate; cards taken)
    board_events=frozenset({"drew", "bought_stock", "sold", "thrown"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
