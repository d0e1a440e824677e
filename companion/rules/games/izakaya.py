"""IZAKAYA (rule book 000): a town of corner shops on TOKYO JUTAKU's plot cards.

The plot cards lie in a square (3x3 with the middle card unusable for 2-3 players, 4x4 for 4,
5x5 for 5); the six colour cards of JIDOHANBAIKI lie below with their prices (100, 100, 200,
200, 300, 300 in 100-yen coins), each over a crate of its six drinks. Every round begins with
sealed bids for the turn order: all bids go into a pot, the highest goes first, tied bidders
swap places. Then, in turn order, each player lays their three action discs one at a time: on a
colour card (one disc per colour and phase) to stand a drink of that colour at a corner where
cards meet (four-card corners first); on the shape card (once per phase) to move one 100-yen
coin from a colour card to another; on the claim card to lay a claim disc on an edge between two
plots and a pyramid on one of them (three claim discs in a line earn a free building piece); or
on the architect to build a JUTAKU piece on a plot. When the pot reaches its mark, one more
action phase is played. Each building scores the prices of the drinks at its card's corners
times its storeys; with the yen in hand that is the score. What JUTAKU contributes is entered as
taps (which cards have two lots, at the start, or option ``two_lots``; the storeys a building has).

>>> s = setup({"names": ["Aki", "Ben"]})
>>> s.phase, s.grid.size, s.grid.blocked, len(legal_moves(s, "chance"))
('layout', 3, (4,), 9)
>>> s, _ = apply(s, Move("two_lot_card", "chance", {"card": 0}))
>>> s, _ = apply(s, Move("layout_done", "chance", {}))
>>> s.phase, s.lots[:2], [m.args for m in legal_moves(s, "chance")]
('order', (2, 1), [{'seat': 0}, {'seat': 1}])
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ...drinks import SHAPES
from ..declared import Declared, Kind, Phase
from ..engine import CHANCE, ChanceChoice, ChanceSpec, Event, IllegalMove, Move, Pending, uniform
from .common import arg_int, arg_text, seat_in, seat_names, set_at, top
from .izakaya_grid import Grid
from .izakaya_state import (ACT, BID, BUILD, CLAIM, COLOURS, LAYOUT, OVER, ORDER, PASS, PRICE, Options, Seat, State,
                            scores)
from .izakaya_view import bid_info, build_info, payouts, view
from .sealed import Bidding, bidders, check_bid, redraw_bids

NAME = "izakaya"
TITLE = "IZAKAYA"
PLAYERS = (2, 3, 4, 5)
RULE = "000 IZAKAYA"


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    size = opts.size
    grid = Grid(size, (4,) if size == 3 else ())
    bad = [c for c in opts.two_lots if c not in grid.plots]
    if bad:
        most, card = size * size - 1, bad[0]
        raise IllegalMove(f"option two_lots must name plot cards 0 to {most} (not the blocked middle), not {card}")
    lots = tuple(0 if c in grid.blocked else 2 if c in opts.two_lots else 1 for c in grid.cards)
    crates = frozenset(f"{c}-{s.value}" for c in COLOURS for s in SHAPES)
    return State(opts, tuple(Seat(n, opts.start_yen) for n in names), grid, lots,
                 phase=ORDER if opts.two_lots else LAYOUT,     # the cards named already, or tapped now
                 coins=tuple(opts.start_coins), crates=crates, pieces=opts.pieces)


# --- the JUTAKU cards as they lie: which have two lots ----------------------------------------

def _layout_outcomes(state: State) -> ChanceSpec:
    # For the simulated table and random games: as likely done as another two-lot card.
    single = [c for c in state.grid.plots if state.lots[c] == 1]
    done = Move("layout_done", CHANCE, {})
    if not single:
        return uniform([done])
    return ChanceChoice(tuple((Move("two_lot_card", CHANCE, {"card": c}), 0.5 / len(single)) for c in single)
                        + ((done, 0.5),))


def _two_lot_card(state: State, move: Move) -> tuple[State, list[Event]]:
    card = arg_int(move, "card")
    if card not in state.grid.plots or state.lots[card] != 1:
        most = state.grid.size ** 2 - 1
        raise IllegalMove(f"'card' must be a plot card not marked yet, 0 to {most}; not {card}")
    lots = tuple(2 if c == card else k for c, k in enumerate(state.lots))
    return replace(state, lots=lots), [Event("two_lot_card", {"card": card})]


def _layout_done(state: State, move: Move) -> tuple[State, list[Event]]:
    doubles = [c for c, k in enumerate(state.lots) if k == 2]
    return replace(state, phase=ORDER), [Event("layout_done", {"cards": doubles})]


# --- the turn order drawn at the start --------------------------------------------------------

def _discs_left(state: State) -> ChanceSpec:
    return uniform(Move("order_disc", CHANCE, {"seat": p}) for p in range(state.n) if p not in state.order)


def _order_disc(state: State, move: Move) -> tuple[State, list[Event]]:
    left = [q for q in range(state.n) if q not in state.order]
    p = seat_in(move, left)
    order = state.order + (p,)
    events = [Event("order_disc", {"seat": p, "place": len(order)})]
    if len(order) == state.n - 1:        # the last disc is known
        order += tuple(q for q in range(state.n) if q not in order)
    state = replace(state, order=order)
    if len(order) < state.n:
        return state, events
    return _new_bidding(state), events + [Event("turn_order", {"order": list(order)})]


def _new_bidding(state: State) -> State:
    return replace(state, phase=BID, bidding=Bidding(state.order), round=state.round + 1)


# --- bidding for the turn order ---------------------------------------------------------------

def _bids(state: State, seat: int) -> list[Move]:
    step = state.options.bid_step
    return [Move("bid", seat, {"amount": a}) for a in range(0, state.seats[seat].yen + 1, step)]


def _bid(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    bidding = state.bidding.place(p, check_bid(move, state.seats[p].yen, state.options.bid_step))
    events = [Event("bid_placed", {"seat": p})]
    if not bidding.complete():
        return replace(state, bidding=bidding), events
    bids = dict(bidding.sealed)
    order = ordered_by_bids(state.order, bids)
    seats = tuple(replace(s, yen=s.yen - bids[p]) for p, s in enumerate(state.seats))
    pot = state.pot + sum(bids.values())
    events += [Event("bids_opened", {"bids": {str(k): v for k, v in bids.items()}, "pot": pot}),
               Event("turn_order", {"order": list(order)})]
    last = state.last_phase or pot >= state.options.threshold
    if last and not state.last_phase:
        events.append(Event("last_phase", {"pot": pot, "mark": state.options.threshold}))
    state = replace(state, seats=seats, pot=pot, order=order, bidding=None, last_phase=last, phase=ACT,
                    step=0, spaces=())
    return state, events


def ordered_by_bids(before: tuple[int, ...], bids: Mapping[int, int]) -> tuple[int, ...]:
    """The new turn order: the highest bid first; bidders who tied swap places (their order
    before is reversed).

    >>> ordered_by_bids((0, 1, 2), {0: 100, 1: 300, 2: 100})
    (1, 2, 0)
    """
    return tuple(sorted(before, key=lambda p: (-bids[p], -before.index(p))))


# --- the action phase: whose disc, and what each space does -----------------------------------

def acting(state: State) -> list[Pending]:
    return [Pending(state.actor)]


def _waiting_for_disc(state: State) -> str:
    holder = state.names[state.actor]
    if state.owed is not None:
        return f"{holder} to build the free piece"
    return f"{holder} to lay an action disc"


def _laying(state: State, move: Move) -> int:
    if state.owed is not None:
        holder = state.names[state.owed]
        raise IllegalMove(f"first {holder} builds the free piece (a line of three claim discs)")
    return move.player


def _laid(state: State, seat: int, space: str, events: list[Event]) -> tuple[State, list[Event]]:
    """One action disc laid on ``space``; the phase ends when every disc is down."""
    state = replace(state, spaces=state.spaces + ((seat, space),), step=state.step + 1)
    return _phase_done(state, events)


def _phase_done(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    if state.step < state.options.action_discs * state.n or state.owed is not None:
        return state, events
    events = events + [Event("discs_back", {"round": state.round})]
    state = replace(state, spaces=(), step=0)
    if state.last_phase or state.round >= state.options.max_rounds:
        return _finish(state, events)
    return _new_bidding(state), events


def _colours_open(state: State) -> list[str]:
    return [c for c in state.options.colour_row
            if not state.used(c) and any(d.startswith(c + "-") for d in state.crates)]


def _drinks(state: State, seat: int) -> list[Move]:
    if state.owed is not None:
        return []
    corners = state.grid.open_corners(k for k, _ in state.drinks)
    return [Move("drink", seat, {"colour": c, "corner": k}) for c in _colours_open(state) for k in corners]


def _drink(state: State, move: Move) -> tuple[State, list[Event]]:
    seat = _laying(state, move)
    colour = arg_text(move, "colour", COLOURS)
    if state.used(colour):
        raise IllegalMove(f"a disc already lies on the {colour} card this phase; choose another colour")
    left = [d for d in state.crates if d.startswith(colour + "-")]
    if not left:
        raise IllegalMove(f"the {colour} crate is empty; choose another colour")
    corner = arg_int(move, "corner")
    open_ = state.grid.open_corners(k for k, _ in state.drinks)
    if corner not in open_:
        spots = ", ".join(map(str, open_))
        raise IllegalMove(f"'corner' must be an empty corner where cards meet (four-card corners first): "
                          f"{spots}; not {corner}")
    drink = min(left, key=lambda d: [s.value for s in SHAPES].index(d.split("-", 1)[1]))
    state = replace(state, crates=state.crates - {drink}, drinks=tuple(sorted(state.drinks + ((corner, drink),))),
                    last={"seat": seat, "kind": "drink", "corner": corner, "drink": drink})
    return _laid(state, seat, colour, [Event("drink_placed", {"seat": seat, "drink": drink, "colour": colour,
                                                              "corner": corner})])


def _prices(state: State, seat: int) -> list[Move]:
    if state.owed is not None or state.used(PRICE):
        return []
    row = state.options.colour_row
    return [Move("price", seat, {"from": a, "onto": b}) for a in row if state.price(a) > 0 for b in row if b != a]


def _price(state: State, move: Move) -> tuple[State, list[Event]]:
    seat = _laying(state, move)
    if state.used(PRICE):
        raise IllegalMove("the price move has been made this phase already; choose another space")
    a, b = arg_text(move, "from", COLOURS), arg_text(move, "onto", COLOURS)
    if a == b or state.price(a) <= 0:
        raise IllegalMove(f"move a coin from a colour card that has one to another card, not {a} to {b}")
    row = state.options.colour_row
    coins = list(state.coins)
    coins[row.index(a)] -= 1
    coins[row.index(b)] += 1
    state = replace(state, coins=tuple(coins), last={"seat": seat, "kind": "price", "from": a, "onto": b})
    moved = Event("price_moved", {"seat": seat, "from": a, "onto": b, "from_price": state.price(a),
                                  "onto_price": state.price(b)})
    return _laid(state, seat, PRICE, [moved])


def _claimable(state: State, seat: int) -> list[tuple[int, int]]:
    """(plot, neighbour): a free edge between two plots and the unclaimed card of the two."""
    me = state.seats[seat]
    if len(me.claims) >= state.options.claim_discs or len(me.plots) >= state.options.pyramids:
        return []
    taken = {e for s in state.seats for e in s.claims}
    return [(a, b) for e in state.grid.edges if e not in taken for a, b in (e, e[::-1]) if state.owner(a) is None]


def _claims(state: State, seat: int) -> list[Move]:
    if state.owed is not None:
        return []
    return [Move("claim", seat, {"plot": a, "neighbour": b}) for a, b in sorted(_claimable(state, seat))]


def _claim(state: State, move: Move) -> tuple[State, list[Event]]:
    seat = _laying(state, move)
    plot, neighbour = arg_int(move, "plot"), arg_int(move, "neighbour")
    if (plot, neighbour) not in _claimable(state, seat):
        raise IllegalMove(_why_no_claim(state, seat, plot, neighbour))
    me = state.seats[seat]
    edge = (min(plot, neighbour), max(plot, neighbour))
    line = state.grid.in_line(me.claims, edge)
    seats = set_at(state.seats, seat, claims=me.claims + (edge,), plots=me.plots + (plot,))
    state = replace(state, seats=seats, last={"seat": seat, "kind": "claim", "plot": plot, "neighbour": neighbour})
    events = [Event("plot_claimed", {"seat": seat, "plot": plot, "neighbour": neighbour})]
    if line and state.pieces > 0 and _build_moves(state, seat):
        state = replace(state, owed=seat)
        events.append(Event("line_of_three", {"seat": seat}))
    return _laid(state, seat, CLAIM, events)


def _why_no_claim(state: State, seat: int, plot: int, neighbour: int) -> str:
    me = state.seats[seat]
    if len(me.claims) >= state.options.claim_discs or len(me.plots) >= state.options.pyramids:
        return "you have no claim disc or pyramid left; choose another space"
    if not state.grid.edge_free(plot, neighbour):
        return f"cards {plot} and {neighbour} are not two plots side by side"
    if state.owner(plot) is not None:
        holder = state.names[state.owner(plot)]
        return f"plot {plot} belongs to {holder} already"
    return f"a claim disc lies between cards {plot} and {neighbour} already"


def _build_moves(state: State, seat: int, kind: str = "build") -> list[Move]:
    o = state.options
    if state.pieces <= 0:
        return []
    moves = []
    for card in state.grid.plots:
        owner = state.owner(card)
        if o.build_on == "own" and owner != seat or o.build_on == "own_or_free" and owner not in (None, seat):
            continue
        for lot in range(state.lots[card]):
            h = state.storeys(card, lot)
            moves += [Move(kind, seat, {"plot": card, "lot": lot, "storeys": t})
                      for t in range(h + 1, min(h + o.piece_storeys, o.max_storeys) + 1)]
    return moves


def _builds(state: State, seat: int) -> list[Move]:
    return [] if state.owed is not None else _build_moves(state, seat)


def _free_builds(state: State, seat: int) -> list[Move]:
    return _build_moves(state, seat, "free_build") if state.owed == seat else []


def _built(state: State, move: Move) -> tuple[State, list[Event]]:
    seat = move.player
    plot, lot, storeys = arg_int(move, "plot"), arg_int(move, "lot", 0), arg_int(move, "storeys")
    asked = Move(move.kind, seat, {"plot": plot, "lot": lot, "storeys": storeys})
    if asked not in _build_moves(state, seat, move.kind):
        raise IllegalMove(_why_no_build(state, seat, plot, lot, storeys))
    pieces = next((b[3] for b in state.buildings if b[:2] == (plot, lot)), 0) + 1
    buildings = tuple(sorted([b for b in state.buildings if b[:2] != (plot, lot)] + [(plot, lot, storeys, pieces)]))
    state = replace(state, buildings=buildings, pieces=state.pieces - 1,
                    last={"seat": seat, "kind": move.kind, "plot": plot, "lot": lot, "storeys": storeys})
    return state, [Event("built", {"seat": seat, "plot": plot, "lot": lot, "storeys": storeys,
                                   "free": move.kind == "free_build"})]


def _why_no_build(state: State, seat: int, plot: int, lot: int, storeys: int) -> str:
    o = state.options
    if state.pieces <= 0:
        return "no building piece is left in the supply"
    if plot not in state.grid.plots or not 0 <= lot < state.lots[plot]:
        return f"'plot' must be a plot card and 'lot' one of its lots, not plot {plot} lot {lot}"
    if o.build_on != "any" and state.owner(plot) not in (seat, None if o.build_on == "own_or_free" else seat):
        return f"plot {plot} is not yours to build on"
    least = state.storeys(plot, lot) + 1
    most = min(least - 1 + o.piece_storeys, o.max_storeys)
    return f"'storeys' is what the building has with the new piece: {least} to {most}, not {storeys}"


def _build(state: State, move: Move) -> tuple[State, list[Event]]:
    seat = _laying(state, move)
    state, events = _built(state, move)
    return _laid(state, seat, BUILD, events)


def _free_build(state: State, move: Move) -> tuple[State, list[Event]]:
    if state.owed != move.player:
        raise IllegalMove("a free building piece comes only with a line of three claim discs")
    state, events = _built(state, move)
    return _phase_done(replace(state, owed=None), events)


def _passes(state: State, seat: int) -> list[Move]:
    # Only a player with no space to use lays the disc aside.
    blocked = not (_drinks(state, seat) or _prices(state, seat) or _claims(state, seat) or _builds(state, seat))
    return [Move("pass", seat, {})] if blocked and state.owed is None else []


def _pass(state: State, move: Move) -> tuple[State, list[Event]]:
    seat = _laying(state, move)
    if not _passes(state, seat):
        raise IllegalMove("lay the disc on a space; passing is only for a player with no space to use")
    return _laid(state, seat, PASS, [Event("passed", {"seat": seat})])


# --- the end (the view and payouts: izakaya_view.py) ------------------------------------------

def _finish(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    totals = [s.yen + b for s, b in zip(state.seats, scores(state))]
    best = top(totals)
    winners = top({p: state.seats[p].yen for p in best}, best)   # a tie: who kept the most yen
    state = replace(state, phase=OVER, winners=winners)
    return state, events + [Event("game_over", {"winners": list(winners), "totals": totals})]


GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(LAYOUT, "the plot cards with two dark plot borders (then: done)", outcomes=_layout_outcomes,
              ends="when the table says every card with two lots is marked"),
        Phase(ORDER, "the next disc drawn for the turn order", outcomes=_discs_left,
              ends="when every player's disc is drawn (the last one is known)"),
        Phase(BID, "the sealed bids for the turn order", acting=bidders,
              ends="when every player has bid: all bids go into the pot, the highest goes first"),
        Phase(ACT, _waiting_for_disc, acting=acting,
              ends="when every player has laid their action discs; after the last phase, the scoring"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("two_lot_card", _two_lot_card, f"{RULE}: Bauaktion", phases=(LAYOUT,), chance=True),
        Kind("layout_done", _layout_done, f"{RULE}: Vorbereitung", phases=(LAYOUT,), chance=True),
        Kind("order_disc", _order_disc, f"{RULE}: Vorbereitung", phases=(ORDER,), chance=True),
        Kind("bid", _bid, f"{RULE}: Bieten um die Zugreihenfolge", phases=(BID,), listed=_bids, info=bid_info,
             secret=True, open_events=("bids_opened", "turn_order", "last_phase")),
        Kind("drink", _drink, f"{RULE}: Aktionsphase (farbige Flaschen)", phases=(ACT,), listed=_drinks),
        Kind("price", _price, f"{RULE}: Aktionsphase (Preisanpassung)", phases=(ACT,), listed=_prices),
        Kind("claim", _claim, f"{RULE}: Aktionsphase (Grundstück beanspruchen)", phases=(ACT,), listed=_claims),
        Kind("build", _build, f"{RULE}: Aktionsphase (Bauaktion)", phases=(ACT,), listed=_builds, info=build_info),
        Kind("free_build", _free_build, f"{RULE}: Aktionsphase (Grundstück beanspruchen)", phases=(ACT,),
             listed=_free_builds, info=build_info),
        Kind("pass", _pass, f"{RULE}: Aktionsphase", phases=(ACT,), listed=_passes),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: state.names, redraw=redraw_bids,
    board_events=frozenset({"drink_placed", "price_moved", "plot_claimed", "built"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
