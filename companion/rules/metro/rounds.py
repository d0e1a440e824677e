"""TOKYO METRO: the round's flow: the card columns, the bids for the player order, ties, the
turns of the movement and action phases, the next round and the end of the game.

``deal`` (chance) fills the columns; ``bid`` (secret, everyone at once) sets the order, round 1's
ties broken by ``tie_break`` (chance); later rounds' ties swap places. Turns go round in player
order; when the action phase is over the train phase begins (trains.py), and after it the
columns are refilled, or the game ends and is scored (scoring.py).
"""
from __future__ import annotations

from ..engine import CHANCE, ChanceChoice, Event, IllegalMove, Move, MoveInfo, Pending, uniform
from . import scoring
from .stock_column import STOCK_SET, deal_outcomes, seen_cards, slide_down, turn_up
from .state import (ACTIONS, BID, DEAL, MOVEMENT, OVER, TIE, TRAINS, State, int_arg, seat_label, set_seat,
                    str_arg)


# --- deal / refill --------------------------------------------------------------------------------

def deal_spec(state: State) -> ChanceChoice:
    """The cards that may turn up for the next column: those left in its deck's current dot group."""
    column = state.dealing[0]
    if column == len(state.columns):  # METRO DRINKS: the stock column, after the action-card columns
        return deal_outcomes(state.drinks.stock, seen_cards(state.drinks), column)
    group = next(g for g in state.columns[column].deck if g)
    return uniform(Move("deal", CHANCE, {"column": column, "card": c}) for c in group)


def apply_deal(state: State, move: Move) -> tuple[State, list[Event]]:
    column = state.dealing[0]
    given = int_arg(move, "column")
    if given != column:
        name = state.rules.deck.sets[column].id if column < len(state.columns) else STOCK_SET
        raise IllegalMove(f"the next card goes to column {column} ({name}), "
                          f"not column {given}", move)
    card = str_arg(move, "card")
    if column == len(state.columns):
        return _dealt(state._replace(drinks=turn_up(state.drinks, _stock_card(state, move, card))), column, card)
    col = state.columns[column]
    group_index = next(i for i, g in enumerate(col.deck) if g)
    group = col.deck[group_index]
    if card not in group:
        raise IllegalMove(f"{card!r} cannot be turned up in column {column} now: the deck deals its "
                          f"{state.rules.deck.cards[group[0]].dots}-dot cards first, of which are left: "
                          f"{', '.join(group)}", move)
    deck = list(col.deck)
    deck[group_index] = tuple(c for c in group if c != card)
    columns = list(state.columns)
    columns[column] = col._replace(deck=tuple(deck), slots=col.slots + (card,))
    return _dealt(state._replace(columns=tuple(columns)), column, card)


def _stock_card(state: State, move: Move, card: str) -> str:
    spec = deal_outcomes(state.drinks.stock, seen_cards(state.drinks), len(state.columns))
    can = [m.args["card"] for m, _ in spec.outcomes]
    if card not in can:
        raise IllegalMove(f"{card!r} cannot be turned up in the {STOCK_SET} column now; it may be: {', '.join(can)}", move)
    return card


def _dealt(state: State, column: int, card: str) -> tuple[State, list[Event]]:
    state = state._replace(dealing=state.dealing[1:])
    events = [Event("dealt", {"column": column, "card": card})]
    if not state.dealing:
        state, more = _after_deal(state)
        events += more
    return state, events


def _after_deal(state: State) -> tuple[State, list[Event]]:
    if state.rules.solo:
        bonus = state.seats[0].bonus
        state = state._replace(seats=set_seat(state, 0, bonus=0), bank=state.bank + bonus)
        return start_movement(state), [Event("phase", {"phase": MOVEMENT, "round": state.round})]
    return state._replace(phase=BID), [Event("phase", {"phase": BID, "round": state.round})]


def start_next_round(state: State) -> tuple[State, list[Event]]:
    """After the train phase: the refill of the card columns, or the end of the game."""
    empty = [state.rules.deck.sets[i].id for i, c in enumerate(state.columns) if not any(c.deck)]
    drinks = state.drinks
    if drinks is not None and drinks.stock.left <= 0:
        empty.append(STOCK_SET)
    if empty:
        return finish(state, f"column(s) {', '.join(empty)} cannot be refilled")
    columns = tuple(c._replace(slots=c.slots[1:], discard=c.discard + c.slots[:1]) for c in state.columns)
    discarded = [c.slots[0] for c in state.columns if c.slots]
    if drinks is not None:  # METRO DRINKS: a gap at the bottom discards nothing (stock_column.py)
        discarded += [c for c in drinks.stock.slots[:1] if c]
        drinks = slide_down(drinks)
    state = state._replace(phase=DEAL, round=state.round + 1, columns=columns, drinks=drinks,
                           dealing=tuple(range(len(columns) + (drinks is not None))), run=None, last_bids=None,
                           turn=0, barred=())
    return state, [Event("round", {"round": state.round}), Event("discarded", {"cards": discarded})]


def finish(state: State, why: str) -> tuple[State, list[Event]]:
    result = scoring.final(state)
    seats = tuple(s._replace(yen=result["totals"][p], bonus=0) for p, s in enumerate(state.seats))
    lines = tuple(ls._replace(specs=tuple((p, 0) for p, _ in ls.specs)) for ls in state.lines)
    paid_out = sum(result["totals"]) - sum(s.yen for s in state.seats)
    stakes = sum(st for ls in state.lines for _, st in ls.specs)
    bonuses = sum(s.bonus for s in state.seats)
    bank = state.bank - paid_out + stakes + bonuses
    state = state._replace(phase=OVER, seats=seats, lines=lines, bank=bank, result=result, run=None, barred=())
    return state, [Event("game_over", {"why": why, "ranking": result["ranking"], "totals": result["totals"]})]


# --- bids -----------------------------------------------------------------------------------------

def bidders(state: State) -> list[Pending]:
    return [Pending(p) for p in state.order if state.seats[p].bid < 0]


def awaited_bids(state: State) -> str:
    missing = ", ".join(seat_label(state, w.actor) for w in bidders(state))
    return f"the secret bids of those who have not bid yet ({missing}); a seat that has bid already waits"


def bid_moves(state: State, p: int) -> list[Move]:
    step = state.options.bid_step
    return [Move("bid", p, {"amount": a}) for a in range(0, state.seats[p].yen + 1, step)]


def bid_info(state: State, move: Move) -> MoveInfo:
    # Unlike a sealed bid of the JIDOHANBAIKI games, every METRO bid is paid, the highest or not.
    return MoveInfo(cost=int(move.args["amount"]), why="why.tokyo_metro.bid")


def apply_bid(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    seat = state.seats[p]
    amount = int_arg(move, "amount")
    step = state.options.bid_step
    if amount < 0 or amount % step or amount > seat.yen:
        raise IllegalMove(f"a bid is 0 to {seat.yen} yen (what you have) in steps of {step}, not {amount}", move)
    state = state._replace(seats=set_seat(state, p, bid=amount))
    events = [Event("bid", {"seat": p, "secret": True})]
    if all(s.bid >= 0 for s in state.seats):
        state, more = _reveal(state)
        events += more
    return state, events


def _reveal(state: State) -> tuple[State, list[Event]]:
    seats = state.seats
    totals = [s.bid + s.bonus for s in seats]
    position = {p: i for i, p in enumerate(state.order)}
    ranked = sorted(range(len(seats)), key=lambda p: (-totals[p], position[p]))
    groups: list[tuple[int, ...]] = []
    for p in ranked:
        if groups and totals[groups[-1][0]] == totals[p]:
            groups[-1] += (p,)
        else:
            groups.append((p,))
    paid = sum(s.bid for s in seats) + sum(s.bonus for s in seats)
    bids = tuple((s.bid, s.bonus) for s in seats)
    new_seats = tuple(s._replace(yen=s.yen - s.bid, bid=-1, bonus=0) for s in seats)
    state = state._replace(seats=new_seats, bank=state.bank + paid, last_bids=bids)
    event = Event("bids", {"bids": [b for b, _ in bids], "bonus": [x for _, x in bids], "totals": totals})
    if state.round == 1 and any(len(g) > 1 for g in groups):
        return state._replace(phase=TIE, ties=tuple(groups)), [event, Event("phase", {"phase": TIE})]
    # Later rounds: tied players swap their relative places (three or more: their order reverses).
    order = tuple(p for g in groups for p in reversed(g))
    state = start_movement(state._replace(order=order))
    return state, [event, Event("order", {"order": list(order)})]


def tie_spec(state: State) -> ChanceChoice:
    group = next(g for g in state.ties if len(g) > 1)
    return uniform(Move("tie_break", CHANCE, {"seat": p}) for p in group)


def apply_tie(state: State, move: Move) -> tuple[State, list[Event]]:
    k = next(i for i, g in enumerate(state.ties) if len(g) > 1)
    group = state.ties[k]
    p = int_arg(move, "seat")
    if p not in group:
        raise IllegalMove(f"the tie to break is between seats {', '.join(map(str, group))}; seat {p} is not in it", move)
    ties = state.ties[:k] + ((p,), tuple(q for q in group if q != p)) + state.ties[k + 1:]
    state = state._replace(ties=ties)
    events = [Event("tie_break", {"seat": p, "place": k + 1})]
    if all(len(g) == 1 for g in ties):
        order = tuple(g[0] for g in ties)
        state = start_movement(state._replace(order=order, ties=()))
        events.append(Event("order", {"order": list(order)}))
    return state, events


# --- turns ----------------------------------------------------------------------------------------

def in_turn(state: State) -> list[Pending]:
    """The seat whose turn it is (movement and action phases)."""
    return [Pending(state.order[state.turn])]


def start_movement(state: State) -> State:
    return state._replace(phase=MOVEMENT, turn=0)


def next_mover(state: State) -> State:
    """The next seat in order moves; after the last, the action phase begins."""
    if state.turn + 1 < len(state.order):
        return state._replace(turn=state.turn + 1)
    return state._replace(phase=ACTIONS, turn=0)


def next_turn(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """The next seat in order that has not passed takes its action turn; when everyone has passed,
    the discs come back and the train phase begins."""
    n = len(state.order)
    for k in range(1, n + 1):
        t = (state.turn + k) % n
        if not state.seats[state.order[t]].passed:
            return state._replace(turn=t), events
    seats = tuple(s._replace(used=0, passed=False, discounts=(), tempo_now=0) for s in state.seats)
    state = state._replace(seats=seats, occupied=frozenset(), placed=(), phase=TRAINS, run=None, turn=0)
    return state, events + [Event("phase", {"phase": TRAINS})]
