"""JASMINE TEA (rule book 002): bet on drinks and invest in them.

Everyone starts with 2,000 yen; a sealed bid decides the start player (only the
winner pays). A round is three actions each (two in the last round), clockwise from
the start player: buy a stock card from the middle (500 yen, not while a bet lies on
it), bet on one or more stock cards (up to 200 yen plus 200 per card you own), or
buy 1/2/3 drinks for 100/400/900 yen. At the end of the round the poorest player
throws every drink bought this round into the tower; each bet whose card matches a
drink that came out pays 3:1 once; the stakes go to the bank, or to the card's owner
when it is someone else's card. Drinks that came out leave the game (the box), and
after the last round each owned card earns 200 yen per boxed drink it matches.
Rounds: 5 with 2 players, 4 with 3-4, 3 with 5-6. See docs/rules-notes.md.

>>> s = setup({"names": ["Aki", "Ben"]})
>>> s.phase, [w.actor for w in pending(s)]
('bid', [0, 1])
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from ...drinks import ALL_DRINKS, CARD_IDS
from ..engine import (CHANCE, Actor, ChanceDrop, ChanceSpec, Composite, Event, IllegalMove, Move,
                      MoveInfo, Pending, uniform)
from ..tower import Tower
from .common import (Bidding, arg_card, arg_drinks, arg_list, bid_moves, check_bid, clockwise,
                     count_matching, dispatch, matches, options_from_config, seat_names,
                     set_at, sort_drinks, square_price, stepped_amounts, top)

NAME = "jasmine_tea"
TITLE = "JASMINE TEA"
PLAYERS = (2, 3, 4, 5, 6)
SECRET_MOVES = frozenset({"bid"})  # sealed: made on the bidder's own phone

START, BID, BID_TIE, TURNS, DROP, NEXT_START, OVER = (
    "start", "bid", "bid_tie", "turns", "drop", "next_start", "over")
PHASES = (START, BID, BID_TIE, TURNS, DROP, NEXT_START, OVER)


@dataclass(frozen=True)
class Options:
    """The rule book's numbers, and named choices where it is silent (docs/rules-notes.md)."""

    players: int = 3
    start_yen: int = 2000
    rounds: int = 0                 # 0: by player count (5 / 4 / 3)
    actions: int = 3                # per player and round
    last_round_actions: int = 2
    card_price: int = 500
    bet_base: int = 200             # the bet limit without cards
    bet_per_card: int = 200         # added to the limit per owned card
    bet_limit_per: str = "action"   # "action": each bet action; "round": all bets of a round
    payout_ratio: int = 3           # a paying bet pays 3:1
    drink_unit: int = 100           # 1 / 2 / 3 drinks cost 1 / 4 / 9 units
    max_drinks: int = 3
    bonus_per_drink: int = 200      # final bonus per boxed drink matching an owned card
    start_by: str = "bid"           # "bid" (sealed start bid) or "random"
    max_rebids: int = 3             # tied start bids re-bid this often, then a coin decides
    poorest_tie: str = "random"     # who starts next when several are poorest: "random" or "turn_order"
    allow_pass: bool = True         # a player may let an action go by

    def __post_init__(self) -> None:
        if self.bet_limit_per not in ("action", "round"):
            raise IllegalMove("option bet_limit_per must be 'action' or 'round'")
        if self.start_by not in ("bid", "random"):
            raise IllegalMove("option start_by must be 'bid' or 'random'")
        if self.poorest_tie not in ("random", "turn_order"):
            raise IllegalMove("option poorest_tie must be 'random' or 'turn_order'")
        if self.rounds < 0 or self.actions < 1 or self.last_round_actions < 1:
            raise IllegalMove("rounds must be 0 or more and actions at least 1")

    @property
    def total_rounds(self) -> int:
        if self.rounds:
            return self.rounds
        return 5 if self.players == 2 else 4 if self.players <= 4 else 3


@dataclass(frozen=True)
class Seat:
    name: str
    yen: int
    cards: tuple[str, ...] = ()      # stock cards bought (kept to the end)


@dataclass(frozen=True)
class Bet:
    seat: int
    card: str
    amount: int
    turn: int                        # the action of the round that placed it (0-based)


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[Seat, ...]
    bank: int = 0                    # may go below zero: the bank never runs dry
    phase: str = START
    round: int = 1
    start_player: int = 0
    turn: int = 0                    # actions taken this round
    bidding: Bidding | None = None
    tied: tuple[int, ...] = ()       # seats a coin decides between
    middle: tuple[str, ...] = CARD_IDS
    bets: tuple[Bet, ...] = ()
    supply: frozenset[str] = frozenset(d.id for d in ALL_DRINKS)
    bought: tuple[tuple[int, str], ...] = ()   # (buyer, drink) set aside this round
    rethrow: frozenset[str] = frozenset()      # fell out between throws: thrown with the next throw
    tower: Tower = field(default_factory=Tower)
    box: frozenset[str] = frozenset()          # came out: out of the game
    thrower: int | None = None
    last_round: Mapping[str, Any] | None = None
    final: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def order(self) -> tuple[int, ...]:
        return clockwise(self.start_player, self.n)

    @property
    def actions_this_round(self) -> int:
        o = self.options
        return o.last_round_actions if self.round >= o.total_rounds else o.actions


def setup(config: Mapping[str, Any]) -> State:
    opts = options_from_config(Options, config, TITLE, PLAYERS)
    names = seat_names(config, opts.players)
    state = State(opts, tuple(Seat(n, opts.start_yen) for n in names))
    start = config.get("start_player")
    if start is not None:
        if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < opts.players:
            raise IllegalMove(f"seat must be 0 to {opts.players - 1}, not {start!r}")
        return replace(state, phase=TURNS, start_player=start)
    if opts.start_by == "bid":
        return replace(state, phase=BID, bidding=Bidding(tuple(range(opts.players))))
    return state


# --- who acts -------------------------------------------------------------------------------

def current(state: State) -> int | None:
    if state.phase != TURNS:
        return None
    return state.order[state.turn % state.n]


def pending(state: State) -> list[Pending]:
    if state.phase == OVER:
        return []
    if state.phase == BID:
        return [Pending(p) for p in state.bidding.waiting()]
    if state.phase == TURNS:
        return [Pending(current(state))]
    return [Pending(CHANCE)]


def is_over(state: State) -> bool:
    return state.phase == OVER


def _waiting(state: State) -> str:
    return {START: "the start player to be drawn", BID: "the sealed start bids",
            BID_TIE: "a coin to decide the tied start bid", TURNS: "the player whose turn it is",
            DROP: "the drinks that came out of the tower",
            NEXT_START: "a coin to decide which poorest player starts", OVER: "nothing"}[state.phase]


def bet_limit(state: State, p: int) -> int:
    """What ``p`` may still bet with the next bet action."""
    o = state.options
    limit = o.bet_base + o.bet_per_card * len(state.seats[p].cards)
    if o.bet_limit_per == "round":
        limit -= sum(b.amount for b in state.bets if b.seat == p)
    return max(0, min(limit, state.seats[p].yen))


def _bet_on(state: State, card: str) -> bool:
    return any(b.card == card for b in state.bets)


def legal_moves(state: State, actor: Actor) -> list[Move]:
    if actor == CHANCE:
        spec = chance(state)
        return [m for m, _ in spec.outcomes] if spec is not None and spec.kind == "choice" else []
    if state.phase == BID:
        if actor in state.bidding.waiting():
            return bid_moves(actor, state.seats[actor].yen)
        return []
    if state.phase != TURNS or actor != current(state):
        return []
    o, seat = state.options, state.seats[actor]
    moves = []
    if seat.yen >= o.card_price:
        moves += [Move("buy_card", actor, {"card": c}) for c in state.middle if not _bet_on(state, c)]
    for c in CARD_IDS:
        moves += [Move("bet", actor, {"cards": (c,), "amounts": (a,)})
                  for a in stepped_amounts(100, bet_limit(state, actor))]
    if seat.yen >= square_price(1, o.drink_unit):
        # Two or three drinks at once are legal too (see apply); the list keeps to one.
        moves += [Move("buy_drinks", actor, {"drinks": (d,)}) for d in sort_drinks(state.supply)]
    if o.allow_pass or not moves:
        moves.append(Move("pass", actor, {}))
    return moves


def composite_moves(state: State, seat: int) -> list[dict]:
    """The bigger forms of ``bet`` (several cards, an amount each) and ``buy_drinks``
    (up to three drinks, priced by the square) that ``seat`` could make now."""
    if state.phase != TURNS or seat != current(state):
        return []
    o, yen = state.options, state.seats[seat].yen
    found = []
    limit = bet_limit(state, seat)
    if limit >= 100:
        found.append(Composite("bet", {"arg": "cards", "from": list(CARD_IDS), "min": 1,
                                       "max": min(len(CARD_IDS), limit // 100)},
                               amounts={"arg": "amounts", "min": 100, "step": 100, "max_total": limit}))
    most = max((k for k in range(1, o.max_drinks + 1)
                if k <= len(state.supply) and square_price(k, o.drink_unit) <= yen), default=0)
    if most:
        found.append(Composite("buy_drinks", {"arg": "drinks", "from": sort_drinks(state.supply), "min": 1,
                                              "max": most},
                               price={str(k): square_price(k, o.drink_unit) for k in range(1, most + 1)}))
    return [c.to_json() for c in found]


def chance(state: State) -> ChanceSpec | None:
    if state.phase == START:
        return uniform(Move("start_player", CHANCE, {"seat": p}) for p in range(state.n))
    if state.phase in (BID_TIE, NEXT_START):
        kind = "tie_break" if state.phase == BID_TIE else "start_player"
        return uniform(Move(kind, CHANCE, {"seat": p}) for p in state.tied)
    if state.phase == DROP:
        return ChanceDrop("drop", _thrown(state), tuple(sort_drinks(state.tower.inside)))
    return None


def _thrown(state: State) -> tuple[str, ...]:
    return tuple(d for _, d in state.bought) + tuple(sort_drinks(state.rethrow))


# --- applying moves ---------------------------------------------------------------------------

def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """The new state and what happened; IllegalMove (state untouched) if not allowed now."""
    return dispatch(state, move, over=is_over(state), pending=pending(state), phase=state.phase,
                    handlers=_HANDLERS, names=[s.name for s in state.seats],
                    waiting=_waiting(state), anytime={"spill": _spill})


def _start_player(state: State, move: Move) -> tuple[State, list[Event]]:
    p = _seat_in(move, state.tied if state.phase == NEXT_START else range(state.n))
    return _begin_round(replace(state, start_player=p, tied=())), [Event("start_player", {"seat": p})]


def _seat_in(move: Move, seats) -> int:
    p = move.args.get("seat")
    seats = list(seats)
    if p not in seats or isinstance(p, bool):
        raise IllegalMove(f"'seat' must be one of {', '.join(map(str, seats))}, not {p!r}", move)
    return p


def _begin_round(state: State) -> State:
    return replace(state, phase=TURNS, turn=0, thrower=None)


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
        state, more = _won_bid(replace(state, bidding=bidding), best[0], bids[best[0]])
        return state, events + more
    if bidding.rebids < state.options.max_rebids:
        events.append(Event("rebid", {"seats": list(best)}))
        return replace(state, bidding=bidding.rebid(best)), events
    return replace(state, bidding=bidding, phase=BID_TIE, tied=best), events


def _tie_break(state: State, move: Move) -> tuple[State, list[Event]]:
    p = _seat_in(move, state.tied)
    state, events = _won_bid(state, p, state.bidding.amount(p))
    return state, [Event("tie_break", {"seat": p})] + events


def _won_bid(state: State, p: int, amount: int) -> tuple[State, list[Event]]:
    seats = set_at(state.seats, p, yen=state.seats[p].yen - amount)
    state = replace(state, seats=seats, bank=state.bank + amount, start_player=p, tied=(), bidding=None)
    return _begin_round(state), [Event("start_bid_won", {"seat": p, "paid": amount})]


def _buy_card(state: State, move: Move) -> tuple[State, list[Event]]:
    p, o = move.player, state.options
    card = arg_card(move)
    if card not in state.middle:
        owner = next((q for q, s in enumerate(state.seats) if card in s.cards), None)
        raise IllegalMove(f"the {card} card is not in the middle any more: {state.seats[owner].name} owns it")
    if _bet_on(state, card):
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
    if not state.options.allow_pass and len(legal_moves(state, move.player)) > 1:
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
    if _thrown(state):
        return replace(state, phase=DROP), [event, Event("throw_due", {"seat": thrower,
                                                                       "drinks": list(_thrown(state))})]
    state, events = _settle(state, ())
    return state, [event] + events


def _drop(state: State, move: Move) -> tuple[State, list[Event]]:
    out = arg_drinks(move, "out")
    tower, drop = state.tower.drop(_thrown(state), out)
    state = replace(state, tower=tower, rethrow=frozenset())
    state, events = _settle(state, drop.out, drop.to_json())
    return state, [Event("drop", drop.to_json())] + events


def score_round(state: State, out: tuple[str, ...]) -> dict:
    """What the bank pays for a drop, and where each stake goes (bank or a card's owner)."""
    o = state.options
    owner = {c: p for p, s in enumerate(state.seats) for c in s.cards}
    paid = [0] * state.n
    stakes_to = [0] * state.n
    to_bank = 0
    lines = []
    for card in CARD_IDS:
        for p in range(state.n):
            stake = sum(b.amount for b in state.bets if b.seat == p and b.card == card)
            if not stake:
                continue
            hit = any(matches(d, card) for d in out)
            win = o.payout_ratio * stake if hit else 0
            paid[p] += win
            q = owner.get(card)
            if q is not None and q != p:
                stakes_to[q] += stake
            else:
                to_bank += stake
            lines.append({"seat": p, "card": card, "stake": stake, "won": win, "stake_to": q if q != p else None})
    return {"out": list(out), "paid": paid, "stakes_to_owners": stakes_to, "stakes_to_bank": to_bank,
            "bets": lines}


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


def final_bonus(state: State) -> list[dict]:
    o = state.options
    return [{c: o.bonus_per_drink * count_matching(state.box, c) for c in s.cards} for s in state.seats]


def _finish(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    bonus = final_bonus(state)
    totals = [sum(b.values()) for b in bonus]
    seats = tuple(replace(s, yen=s.yen + totals[p]) for p, s in enumerate(state.seats))
    winners = top([s.yen for s in seats])
    final = {"bonus": bonus, "bonus_total": totals, "yen": [s.yen for s in seats], "box": sort_drinks(state.box)}
    state = replace(state, seats=seats, bank=state.bank - sum(totals), phase=OVER, final=final,
                    winners=winners, thrower=None)
    return state, events + [Event("game_over", {"winners": list(winners), **final})]


def _spill(state: State, move: Move) -> tuple[State, list[Event]]:
    out = arg_drinks(move, "out")
    tower = state.tower.spill(out)
    return replace(state, tower=tower, rethrow=state.rethrow | set(out)), [Event("spill", {"out": list(out)})]


_HANDLERS = {
    (START, "start_player"): _start_player, (NEXT_START, "start_player"): _start_player,
    (BID, "bid"): _bid, (BID_TIE, "tie_break"): _tie_break,
    (TURNS, "buy_card"): _buy_card, (TURNS, "bet"): _bet, (TURNS, "buy_drinks"): _buy_drinks,
    (TURNS, "pass"): _pass, (DROP, "drop"): _drop,
}


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
        "turn": turn, "to_act": [{"actor": w.actor, "secret_for": w.secret_for} for w in pending(state)],
        "bidding": state.bidding.view(viewer) if state.bidding else None, "tied": list(state.tied),
        "middle": list(state.middle),
        "owners": {c: p for p, s in enumerate(state.seats) for c in s.cards},
        "bets_on_cards": {c: v for c, v in on_cards.items() if v},
        "bought": [{"seat": p, "drink": d} for p, d in state.bought],
        "supply": sort_drinks(state.supply), "box": sort_drinks(state.box),
        "tower": {"stuck": sort_drinks(state.tower.inside)}, "rethrow": sort_drinks(state.rethrow),
        "thrower": state.thrower, "thrown": list(_thrown(state)) if state.phase == DROP else [],
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


def move_info(state: State, move: Move) -> MoveInfo:
    o = state.options
    if move.kind == "bid":
        return MoveInfo(cost=int(move.args.get("amount", 0)))
    if move.kind == "buy_card":
        # Best case: every drink that is or could still end in the box matches at the end.
        pool = state.box | state.supply | state.tower.inside | state.rethrow | {d for _, d in state.bought}
        return MoveInfo(cost=o.card_price, pays_up_to=o.bonus_per_drink * count_matching(pool, move.args.get("card")))
    if move.kind == "bet":
        total = sum(move.args.get("amounts", ()))
        return MoveInfo(cost=total, pays_up_to=o.payout_ratio * total)
    if move.kind == "buy_drinks":
        return MoveInfo(cost=square_price(len(move.args.get("drinks", ())), o.drink_unit))
    return MoveInfo()
