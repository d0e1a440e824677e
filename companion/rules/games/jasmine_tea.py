"""JASMINE TEA (rule book 002): bet on drinks and invest in them.

Everyone starts with 2,000 yen; a sealed bid decides the start player (only the
winner pays). A round is three actions each (two in the last round), clockwise from
the start player: buy a stock card from the middle (500 yen, not while a bet lies on
it), bet on one or more stock cards (up to 200 yen plus 200 per card you own, in all
in a round), or buy 1/2/3 drinks for 100/400/900 yen. At the end of the round the poorest player
throws every drink bought this round into the tower; each bet whose card matches a
drink that came out pays 3:1 once; the stakes go to the bank, or to the card's owner
when it is someone else's card. Drinks that came out leave the game (the box), and
after the last round each owned card earns 200 yen per boxed drink it matches.
Rounds: 5 with 2 players, 4 with 3-4, 3 with 5-6. See docs/rules-notes.md.

The options and the state are in jasmine_tea_state.py, the sealed start bid in sealed.py; this
module declares the phases and the moves (rules/declared.py).

>>> s = setup({"names": ["Aki", "Ben"]})
>>> s.phase, [w.actor for w in pending(s)]
('bid', [0, 1])
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ...drinks import CARD_IDS
from ..declared import Declared, Kind, Phase
from ..engine import CHANCE, ChanceDrop, ChanceSpec, Composite, Event, IllegalMove, Move, MoveInfo, Pending, uniform
from .common import (arg_card, arg_drinks, arg_list, count_matching, seat_in, seat_names, set_at, sort_drinks,
                     spill_to_rethrow, square_price, stepped_amounts, thrown, top)
from .jasmine_tea_state import (BID, BID_TIE, DROP, NEXT_START, OVER, START, TURNS, Bet, Options, Seat, State,
                                bet_limit, bet_on, final_bonus, score_round, thrown_now)
from .sealed import Bidding, SealedBid, redraw_bids
from .tower_turns import config_start_player, to_act

NAME = "jasmine_tea"
TITLE = "JASMINE TEA"
PLAYERS = (2, 3, 4, 5, 6)
RULE = "002 JASMINE TEA"


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    state = State(opts, tuple(Seat(n, opts.start_yen) for n in names))
    first = config_start_player(config, opts.players)
    if first is not None:
        return replace(state, phase=TURNS, start_player=first)
    if opts.start_by == "bid":
        return replace(state, phase=BID, bidding=Bidding(tuple(range(opts.players))))
    return state


# --- who acts, and what chance may bring --------------------------------------------------------

def current(state: State) -> int | None:
    if state.phase != TURNS:
        return None
    return state.order[state.turn % state.n]


def _in_turn(state: State) -> list[Pending]:
    return [Pending(current(state))]


def _start_players(state: State) -> ChanceSpec:
    seats = state.tied if state.phase == NEXT_START else range(state.n)
    return uniform(Move("start_player", CHANCE, {"seat": p}) for p in seats)


def _drops(state: State) -> ChanceSpec:
    return ChanceDrop("drop", thrown_now(state), tuple(sort_drinks(state.tower.inside)))


# --- the moves a seat is offered --------------------------------------------------------------------

def _card_buys(state: State, seat: int) -> list[Move]:
    if state.seats[seat].yen < state.options.card_price:
        return []
    return [Move("buy_card", seat, {"card": c}) for c in state.middle if not bet_on(state, c)]


def _bets(state: State, seat: int) -> list[Move]:
    return [Move("bet", seat, {"cards": (c,), "amounts": (a,)})
            for c in CARD_IDS for a in stepped_amounts(100, bet_limit(state, seat))]


def _drink_buys(state: State, seat: int) -> list[Move]:
    # Two or three drinks at once are legal too (composed: _drink_choices); the list keeps to one.
    if state.seats[seat].yen < square_price(1, state.options.drink_unit):
        return []
    return [Move("buy_drinks", seat, {"drinks": (d,)}) for d in sort_drinks(state.supply)]


def _can_act(state: State, seat: int) -> bool:
    return any(offered(state, seat) for offered in (_card_buys, _bets, _drink_buys))


def _passes(state: State, seat: int) -> list[Move]:
    return [Move("pass", seat, {})] if state.options.allow_pass or not _can_act(state, seat) else []


def _bet_choices(state: State, seat: int) -> list[Composite]:
    """A bet on several cards, an amount each, within the limit."""
    limit = bet_limit(state, seat)
    if limit < 100:
        return []
    pick = {"arg": "cards", "from": list(CARD_IDS), "min": 1, "max": min(len(CARD_IDS), limit // 100)}
    return [Composite("bet", pick, amounts={"arg": "amounts", "min": 100, "step": 100, "max_total": limit})]


def _drink_choices(state: State, seat: int) -> list[Composite]:
    """Up to three drinks at once, priced by the square, as the money and the supply allow."""
    o, yen = state.options, state.seats[seat].yen
    most = max((k for k in range(1, o.max_drinks + 1)
                if k <= len(state.supply) and square_price(k, o.drink_unit) <= yen), default=0)
    if not most:
        return []
    return [Composite("buy_drinks", {"arg": "drinks", "from": sort_drinks(state.supply), "min": 1, "max": most},
                      price={str(k): square_price(k, o.drink_unit) for k in range(1, most + 1)})]


# --- applying moves ---------------------------------------------------------------------------

def _start_player(state: State, move: Move) -> tuple[State, list[Event]]:
    p = seat_in(move, state.tied if state.phase == NEXT_START else range(state.n))
    return _begin_round(replace(state, start_player=p, tied=())), [Event("start_player", {"seat": p})]


def _begin_round(state: State) -> State:
    return replace(state, phase=TURNS, turn=0, thrower=None)


def _buy_card(state: State, move: Move) -> tuple[State, list[Event]]:
    p, o = move.player, state.options
    card = arg_card(move)
    if card not in state.middle:
        owner = next((q for q, s in enumerate(state.seats) if card in s.cards), None)
        raise IllegalMove(f"the {card} card is not in the middle any more: {state.seats[owner].name} owns it")
    if bet_on(state, card):
        raise IllegalMove(f"the {card} card cannot be bought: a bet lies on it this round")
    if state.seats[p].yen < o.card_price:
        raise IllegalMove(f"a stock card costs {o.card_price} yen and you have {state.seats[p].yen}")
    seat = state.seats[p]
    seats = set_at(state.seats, p, yen=seat.yen - o.card_price, cards=seat.cards + (card,))
    state = replace(state, seats=seats, bank=state.bank + o.card_price,
                    middle=tuple(c for c in state.middle if c != card))
    return _after_action(state, Event("bought_card", {"seat": p, "card": card, "paid": o.card_price}))


def _bet(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    cards, amounts = arg_list(move, "cards"), arg_list(move, "amounts")
    if not cards or len(cards) != len(amounts):
        raise IllegalMove("a bet names one or more cards and one amount per card ('cards', 'amounts')")
    bad = [c for c in cards if not isinstance(c, str) or c not in CARD_IDS]
    if bad:
        raise IllegalMove(f"bet on colour or shape cards ({', '.join(CARD_IDS)}); not cards: {bad}")
    if len(set(cards)) != len(cards):
        raise IllegalMove("name each card once in a bet")
    clean = []
    for a in amounts:
        if isinstance(a, float) and a.is_integer():
            a = int(a)
        if not isinstance(a, int) or isinstance(a, bool) or a <= 0 or a % 100:
            raise IllegalMove(f"each amount must be 100, 200, ... yen, not {a!r}")
        clean.append(a)
    total, limit = sum(clean), bet_limit(state, p)
    if total > limit:
        o = state.options
        raise IllegalMove(f"your bets may add up to {limit} yen now ({o.bet_base} plus {o.bet_per_card} per "
                          f"card you own, and no more than you have), not {total}")
    bets = tuple(Bet(p, c, a, state.turn) for c, a in zip(cards, clean))
    seats = set_at(state.seats, p, yen=state.seats[p].yen - total)
    state = replace(state, seats=seats, bets=state.bets + bets)
    return _after_action(state, Event("bet", {"seat": p, "cards": list(cards), "amounts": clean}))


def _buy_drinks(state: State, move: Move) -> tuple[State, list[Event]]:
    p, o = move.player, state.options
    drinks = arg_drinks(move, allow_empty=False)
    if len(drinks) > o.max_drinks:
        raise IllegalMove(f"buy 1 to {o.max_drinks} drinks in one action, not {len(drinks)}")
    missing = [d for d in drinks if d not in state.supply]
    if missing:
        raise IllegalMove(f"{', '.join(missing)} is not in the supply (bought already, stuck in the tower, "
                          "or out of the game)")
    price = square_price(len(drinks), o.drink_unit)
    if price > state.seats[p].yen:
        raise IllegalMove(f"{len(drinks)} drink(s) cost {price} yen and you have {state.seats[p].yen}")
    seats = set_at(state.seats, p, yen=state.seats[p].yen - price)
    state = replace(state, seats=seats, bank=state.bank + price, supply=state.supply - set(drinks),
                    bought=state.bought + tuple((p, d) for d in drinks))
    return _after_action(state, Event("bought_drinks", {"seat": p, "drinks": list(drinks), "paid": price}))


def _pass(state: State, move: Move) -> tuple[State, list[Event]]:
    if not state.options.allow_pass and _can_act(state, move.player):
        raise IllegalMove("you must take one of the three actions (option allow_pass is off)")
    return _after_action(state, Event("passed", {"seat": move.player}))


def _after_action(state: State, event: Event) -> tuple[State, list[Event]]:
    state = replace(state, turn=state.turn + 1)
    if state.turn < state.actions_this_round * state.n:
        return state, [event]
    # The round ends: the poorest throws everything bought this round.
    yen = {p: s.yen for p, s in enumerate(state.seats)}
    thrower = top({p: -v for p, v in yen.items()}, state.order)[0]
    state = replace(state, thrower=thrower)
    if thrown_now(state):
        return replace(state, phase=DROP), [event, Event("throw_due", {"seat": thrower,
                                                                       "drinks": list(thrown_now(state))})]
    state, events = _settle(state, ())
    return state, [event] + events


def _drop(state: State, move: Move) -> tuple[State, list[Event]]:
    state, drop = thrown(state, (d for _, d in state.bought), move)
    state, events = _settle(state, drop.out, drop.to_json())
    return state, [Event("drop", drop.to_json())] + events


def _settle(state: State, out: tuple[str, ...], drop: Mapping | None = None) -> tuple[State, list[Event]]:
    result = score_round(state, out)
    seats = tuple(replace(s, yen=s.yen + result["paid"][p] + result["stakes_to_owners"][p])
                  for p, s in enumerate(state.seats))
    bank = state.bank - sum(result["paid"]) + result["stakes_to_bank"]
    box = state.box | set(out)
    last = {**result, "round": state.round, "thrower": state.thrower, "drop": dict(drop) if drop else None}
    state = replace(state, seats=seats, bank=bank, bets=(), bought=(), box=box, last_round=last)
    events = [Event("round_scored", result)]
    if state.round >= state.options.total_rounds:
        return _finish(state, events)
    state = replace(state, round=state.round + 1)
    poorest = top({p: -s.yen for p, s in enumerate(state.seats)}, state.order)
    events.append(Event("round_started", {"round": state.round}))
    if len(poorest) > 1 and state.options.poorest_tie == "random":
        return replace(state, phase=NEXT_START, tied=poorest), events
    state = _begin_round(replace(state, start_player=poorest[0]))
    return state, events + [Event("start_player", {"seat": poorest[0]})]


def _finish(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    bonus = final_bonus(state)
    totals = [sum(b.values()) for b in bonus]
    seats = tuple(replace(s, yen=s.yen + totals[p]) for p, s in enumerate(state.seats))
    winners = top([s.yen for s in seats])
    final = {"bonus": bonus, "bonus_total": totals, "yen": [s.yen for s in seats], "box": sort_drinks(state.box)}
    state = replace(state, seats=seats, bank=state.bank - sum(totals), phase=OVER, final=final,
                    winners=winners, thrower=None)
    return state, events + [Event("game_over", {"winners": list(winners), **final})]


# --- what the table and each phone see ------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    turn = current(state)
    players = []
    for p, s in enumerate(state.seats):
        done = sum(1 for i in range(state.turn) if state.order[i % state.n] == p) if state.phase == TURNS else 0
        players.append({
            "seat": p, "name": s.name, "yen": s.yen, "cards": list(s.cards),
            "bets": [{"card": b.card, "amount": b.amount} for b in state.bets if b.seat == p],
            "staked": sum(b.amount for b in state.bets if b.seat == p),
            "bet_limit": bet_limit(state, p),
            "actions_left": state.actions_this_round - done if state.phase == TURNS else 0,
            "has_bid": bool(state.bidding and state.bidding.has_bid(p)),
            "bid": state.bidding.amount(p) if state.bidding and viewer == p else None,
            "start": p == state.start_player and state.phase not in (START, BID, BID_TIE),
            "turn": p == turn,
        })
    on_cards = {c: [{"seat": b.seat, "amount": b.amount} for b in state.bets if b.card == c] for c in CARD_IDS}
    return {
        "game": NAME, "phase": state.phase, "round": state.round, "rounds": state.options.total_rounds,
        "actions_per_player": state.actions_this_round, "players": players, "bank": state.bank,
        "turn": turn, "to_act": to_act(pending(state)),
        "bidding": state.bidding.view(viewer) if state.bidding else None, "tied": list(state.tied),
        "middle": list(state.middle),
        "owners": {c: p for p, s in enumerate(state.seats) for c in s.cards},
        "bets_on_cards": {c: v for c, v in on_cards.items() if v},
        "bought": [{"seat": p, "drink": d} for p, d in state.bought],
        "supply": sort_drinks(state.supply), "box": sort_drinks(state.box),
        "tower": {"stuck": sort_drinks(state.tower.inside)}, "rethrow": sort_drinks(state.rethrow),
        "thrower": state.thrower, "thrown": list(thrown_now(state)) if state.phase == DROP else [],
        "last_round": dict(state.last_round) if state.last_round else None,
        "final": dict(state.final) if state.final else None,
        "winners": list(state.winners), "over": state.phase == OVER,
        "options": {"bet_limit_per": state.options.bet_limit_per, "card_price": state.options.card_price},
    }


def payouts(state: State) -> dict:
    """Yen now; each seat's best case for the round in play (every bet pays, stakes on its
    own cards come home) plus the final card bonus if every drink left out came out."""
    best = []
    for p, s in enumerate(state.seats):
        mine = [b for b in state.bets if b.seat == p]
        from_others = sum(b.amount for b in state.bets if b.card in s.cards and b.seat != p)
        best.append(s.yen + state.options.payout_ratio * sum(b.amount for b in mine) + from_others)
    return {"yen": [s.yen for s in state.seats],
            "stakes": [sum(b.amount for b in state.bets if b.seat == p) for p in range(state.n)],
            "best_case": best, "final": state.phase == OVER, "winners": list(state.winners),
            "bonus": state.final["bonus_total"] if state.final else None}


def _card_info(state: State, move: Move) -> MoveInfo:
    # Best case: every drink that is or could still end in the box matches at the end.
    o = state.options
    pool = state.box | state.supply | state.tower.inside | state.rethrow | {d for _, d in state.bought}
    n = count_matching(pool, move.args.get("card"))
    return MoveInfo(cost=o.card_price, pays_up_to=o.bonus_per_drink * n,
                    why="why.jasmine_tea.buyCard", params={"each_yen": o.bonus_per_drink, "n": n})


def _bet_info(state: State, move: Move) -> MoveInfo:
    total = sum(move.args.get("amounts", ()))
    ratio = state.options.payout_ratio
    return MoveInfo(cost=total, pays_up_to=ratio * total, why="why.jasmine_tea.bet", params={"ratio": ratio})


def _drinks_info(state: State, move: Move) -> MoveInfo:
    n, unit = len(move.args.get("drinks", ())), state.options.drink_unit
    return MoveInfo(cost=square_price(n, unit), why="why.squarePrice", params={"n": n, "unit_price": unit})


# --- the declaration --------------------------------------------------------------------------

def _playout_cost(state: State) -> int:
    """A random playout's work in the session's units (a TOKYO METRO seat-round, about 0.25 ms):
    one seat's action takes about two."""
    return 2 * state.n * state.options.actions * max(1, state.options.total_rounds - state.round + 1)


SEALED = SealedBid("start bid", f"{RULE}: VORBEREITUNG", "start_bid_won",
                   lambda state, p: _begin_round(replace(state, start_player=p)))

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(START, "the start player to be drawn", outcomes=_start_players, ends="when a seat is drawn"),
        *SEALED.phases,
        Phase(TURNS, "the player whose turn it is", acting=_in_turn,
              ends="when everyone has taken the round's actions: the poorest throws what was bought"),
        Phase(DROP, "the drinks that came out of the tower", outcomes=_drops,
              ends="when the drop is entered: the bets are paid, then the next round or the end"),
        Phase(NEXT_START, "a coin to decide which poorest player starts", outcomes=_start_players,
              ends="when the coin has named the start player"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("start_player", _start_player, f"{RULE}: VORBEREITUNG; RUNDENENDE", phases=(START, NEXT_START),
             chance=True),
        *SEALED.kinds,
        Kind("buy_card", _buy_card, f"{RULE}: EINE BESTANDSKARTE KAUFEN", phases=(TURNS,), listed=_card_buys,
             info=_card_info),
        Kind("bet", _bet, f"{RULE}: EINE WETTE SETZEN", phases=(TURNS,), listed=_bets, compose=_bet_choices,
             info=_bet_info),
        Kind("buy_drinks", _buy_drinks, f"{RULE}: EIN GETRÄNK KAUFEN", phases=(TURNS,), listed=_drink_buys,
             compose=_drink_choices, info=_drinks_info),
        Kind("pass", _pass, f"{RULE}: SPIELABLAUF", phases=(TURNS,), listed=_passes),
        Kind("drop", _drop, f"{RULE}: RUNDENENDE", phases=(DROP,), chance=True),
        # A stuck drink that falls out on its own (docs/rules-notes.md, JASMINE TEA 12).
        Kind("spill", spill_to_rethrow, f"{RULE}: RUNDENENDE", chance=True, anytime=True),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: [s.name for s in state.seats],
    # Hidden from a viewer: the other seats' sealed start bids, nothing else (the tower's inside
    # is shown; the supply, the bets and the box are open).
    redraw=redraw_bids, playout_cost=_playout_cost,
    # what a person copies onto the real table (drinks into the tower or a crate; cards taken)
    board_events=frozenset({"bought_drinks", "bought_card", "throw_due"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
