"""METRO DRINKS (rule book 000, METRO DRINKS): the stock column's actions and the tower's drops.

The variant adds to TOKYO METRO's (or OSAKA METRO's) action phase (stock_column.py holds the data):

    colour_card {card}            a colour card face up in the stock column: one action disc goes
                                  back to the box for good; the card and that colour's crate are
                                  the seat's. With ``drinks_through_tower`` (default) the crate's
                                  six drinks are thrown into the tower: phase ``drop`` waits for
                                  what comes out (chance ``drop {out}``); it goes into the seat's
                                  supply. Without it the six drinks go straight into the supply.
    vend {station, drink}         a disc on the stock column's draw pile (no limit of spaces): a
                                  drink of one's supply onto a station the meeple touches (on foot,
                                  never riding) that has a pyramid and no drink yet
    shape_card {card}             a shape card's single action space (face up in the column, or the
                                  seat's own card from the discard pile): free builds for the rest
                                  of this action phase
    free_vend {station, drink}    such a free build: in one's own turns, any number, the turn goes on
    move {..., builds}            a move action of a seat with free builds may list builds
                                  [{station, drink}] at stations touched along its way
    card {..., column}            the card action takes the top shape card of the stock column's
                                  discard pile when ``column`` is the stock column's index
    spill {out} (chance, anytime) drinks stuck in the tower fell out on their own

Drinks that come out of the tower go to the seat holding their colour's crate, whoever threw
them. Building at another player's station pays that player 100 yen times the how-many-th of the
builder's drinks at their stations it is (the builder's colours' drinks standing there, counted
with the new one). docs/rules-notes.md (METRO DRINKS) lists our readings.
"""
from __future__ import annotations

from dataclasses import replace

from ..declared import Kind, Phase
from ..engine import ChanceDrop, Event, IllegalMove, Move, MoveInfo
from .actions import Applied, Taking
from .rounds import next_turn
from .state import ACTIONS, State, quick_move, seat_label, set_seat, str_arg
from .stock_column import (COLOUR_IDS, GAP, SHAPE_IDS, STOCK_SET, DrinksState, colour_of, crate_drinks, drinks_arg,
                           owner_of, sort_drinks)

DROP = "drop"              # the phase waiting for the tower after a crate was thrown in
FEE_STEP = 100             # yen per build of yours at that owner's stations, counted with the new one
BOOK = "000 METRO DRINKS"


def _drinks(state: State, move: Move) -> DrinksState:
    if state.drinks is None:
        raise IllegalMove(f"{move.kind} belongs to METRO DRINKS (the game metro_drinks), not to this game", move)
    return state.drinks


def _with(state: State, **changes) -> State:
    return state._replace(drinks=state.drinks._replace(**changes))


def _at(values: tuple, p: int, value) -> tuple:
    return values[:p] + (value,) + values[p + 1:]


def _to_owners(d: DrinksState, drinks) -> DrinksState:
    """Drinks out of the tower into the supply of their colour's crate holder."""
    supplies = list(d.supplies)
    for drink in drinks:
        q = owner_of(d, drink)
        supplies[q] = (sort_drinks(supplies[q] + (drink,)))
    return d._replace(supplies=tuple(supplies))


def free_builders(state: State) -> tuple[int, ...]:
    """The seats with a shape card's free builds in this action phase."""
    d = state.drinks
    if d is None or state.phase != ACTIONS or d.free_round != state.round:
        return ()
    return d.free


def _free_disc(state: State, p: int) -> bool:
    seat = state.seats[p]
    return seat.discs - seat.used >= 1


# --- building a vending machine -----------------------------------------------------------------

def sites(state: State, fields) -> list[int]:
    """Stations touched by any of ``fields`` with a pyramid and no drink yet."""
    board, d = state.board, state.drinks
    out = {s for f in fields for s in board.field_stations[f] if state.pyramids[s] >= 0 and not d.at[s]}
    return sorted(out)


def fee(state: State, p: int, station: int) -> tuple[int, int]:
    """(yen, count): what seat p pays the owner of ``station`` for a build there, and the
    how-many-th of p's drinks at that owner's stations the new one is (0 at one's own station)."""
    owner = state.pyramids[station]
    if owner == p:
        return 0, 0
    d = state.drinks
    mine = set(d.colour_cards[p])
    count = 1 + sum(1 for s, x in enumerate(d.at) if x and state.pyramids[s] == owner and colour_of(x) in mine)
    return FEE_STEP * count, count


def _site_moves(state: State, p: int, kind: str) -> list[Move]:
    seat, d = state.seats[p], state.drinks
    if seat.riding >= 0 or seat.field < 0 or not d.supplies[p]:
        return []
    out = []
    for s in sites(state, (seat.field,)):
        if fee(state, p, s)[0] <= seat.yen:
            sid = state.board.stations[s].id
            out += [quick_move(kind, p, {"station": sid, "drink": x}) for x in d.supplies[p]]
    return out


def _build(state: State, move: Move, p: int, sid, drink, fields) -> Applied:
    """Seat p puts ``drink`` at station ``sid``, one that ``fields`` touch; the fee to its owner."""
    board, d, seat = state.board, state.drinks, state.seats[p]
    if seat.riding >= 0:
        raise IllegalMove("your meeple rides a train: get off first to build a vending machine", move)
    s = board.station_index.get(sid) if isinstance(sid, str) else None
    if s is None:
        raise IllegalMove(f"there is no station {sid!r} on this board", move)
    name = board.stations[s].name
    if not isinstance(drink, str) or drink not in d.supplies[p]:
        mine = ", ".join(d.supplies[p]) or "none"
        raise IllegalMove(f"{drink!r} is not a drink in your supply (yours: {mine})", move)
    if state.pyramids[s] < 0:
        raise IllegalMove(f"{name} has no station pyramid yet: vending machines stand at built stations", move)
    if d.at[s]:
        raise IllegalMove(f"{name} has a drink already ({d.at[s]}): one per station", move)
    if s not in sites(state, fields):
        raise IllegalMove(f"your meeple must touch {name} to build there", move)
    yen, count = fee(state, p, s)
    if yen > seat.yen:
        raise IllegalMove(f"building at {seat_label(state, state.pyramids[s])}'s station costs {yen} yen "
                          f"(your build no. {count} at their stations); you have {seat.yen}", move)
    owner = state.pyramids[s]
    seats = set_seat(state, p, yen=seat.yen - yen)
    if yen:
        seats = seats[:owner] + (seats[owner]._replace(yen=seats[owner].yen + yen),) + seats[owner + 1:]
    supply = tuple(x for x in d.supplies[p] if x != drink)
    state = state._replace(seats=seats, drinks=d._replace(at=_at(d.at, s, drink), supplies=_at(d.supplies, p, supply)))
    return state, [Event("vend_built", {"seat": p, "station": sid, "drink": drink, "owner": owner, "fee": yen})]


def _build_info(state: State, move: Move) -> MoveInfo:
    s = state.board.station_index[move.args["station"]]
    yen, count = fee(state, move.player, s)
    if not yen:  # one's own station: nothing to explain
        return MoveInfo()
    return MoveInfo(cost=yen, why="why.tokyo_metro.vend", params={"fee_yen": yen, "count": count})


def vend_moves(state: State, p: int) -> list[Move]:
    if state.drinks is None or not _free_disc(state, p):
        return []
    return _site_moves(state, p, "vend")


def vend(state: State, move: Move) -> Applied:
    """The draw pile's action: a disc there (unlimited spaces, back at the end of the phase)."""
    _drinks(state, move)
    p = move.player
    if not _free_disc(state, p):
        raise IllegalMove("building a vending machine needs an action disc on the draw pile; you have none left", move)
    state, events = _build(state, move, p, move.args.get("station"), move.args.get("drink"), (state.seats[p].field,))
    seat = state.seats[p]
    state = state._replace(seats=set_seat(state, p, used=seat.used + 1, tempo_now=0),
                           placed=state.placed + ((STOCK_SET, 0, p),))
    return next_turn(state, events)


def free_vend_moves(state: State, p: int) -> list[Move]:
    return _site_moves(state, p, "free_vend") if p in free_builders(state) else []


def free_vend(state: State, move: Move) -> Applied:
    """A shape card's free build: no disc, and the turn goes on."""
    _drinks(state, move)
    p = move.player
    if p not in free_builders(state):
        raise IllegalMove("free builds are for a player who took a shape card in this action phase", move)
    return _build(state, move, p, move.args.get("station"), move.args.get("drink"), (state.seats[p].field,))


# --- builds along a move action's way (card_actions.py's move) ------------------------------------

def _ways(state: State, start: int, end: int, steps: int, taken: set[int]) -> list[tuple[int, ...]]:
    """Every way of up to ``steps`` orthogonal steps from ``start`` to ``end`` (no field twice, no
    field with another meeple)."""
    adjacent, out, stack = state.board.adjacent, [], [(start,)]
    while stack:
        way = stack.pop()
        if way[-1] == end:
            out.append(way)
        if len(way) <= steps:
            stack.extend(way + (g,) for g in adjacent[way[-1]] if g not in taken and g not in way)
    return out


def walk_and_build(t: Taking, end: int, steps: int, taken: set[int]) -> Applied:
    """A move action with ``builds`` [{station, drink}]: free builds at stations touched on one way
    to ``end`` (its first and last field included), then the move."""
    state, move, p = t.state, t.move, t.p
    _drinks(state, move)
    if p not in free_builders(state):
        raise t.fail("builds along the way are for a player with a shape card's free builds in this action phase")
    builds = move.args.get("builds")
    if not isinstance(builds, (list, tuple)) or not all(
            isinstance(b, dict) and set(b) == {"station", "drink"} for b in builds):
        raise t.fail("'builds' must be a list of {\"station\": id, \"drink\": id}, in the order of the way")
    if len(builds) > len(state.drinks.supplies[p]):
        raise t.fail(f"{len(builds)} builds, but your supply holds {len(state.drinks.supplies[p])} drink(s)")
    board = state.board
    ids = {b["station"] for b in builds}
    way = next((w for w in _ways(state, state.seats[p].field, end, steps, taken)
                if ids <= {board.stations[s].id for f in w for s in board.field_stations[f]}), None)
    if way is None:
        raise t.fail(f"no way of up to {steps} steps to {board.field_label(end)} touches all of "
                     f"{', '.join(sorted(map(str, ids)))}")
    events: list[Event] = []
    for b in builds:
        state, more = _build(state, move, p, b["station"], b["drink"], way)
        events += more
    events.append(Event("moved", {"seat": p, "field": list(board.col_row(end)), "card": t.card}))
    return replace(t, state=state).done(0, {"field": end}, events)


# --- colour cards, shape cards --------------------------------------------------------------------

def colour_card_moves(state: State, p: int) -> list[Move]:
    d = state.drinks
    if d is None or not _free_disc(state, p):
        return []
    return [quick_move("colour_card", p, {"card": c}) for c in d.stock.slots if c in COLOUR_IDS]


def _card_arg(move: Move, ids: tuple[str, ...], what: str) -> str:
    card = str_arg(move, "card")
    if card not in ids:
        raise IllegalMove(f"{card!r} is no {what} card; {what} cards: {', '.join(ids)}", move)
    return card


def colour_card(state: State, move: Move) -> Applied:
    d = _drinks(state, move)
    p = move.player
    card = _card_arg(move, COLOUR_IDS, "colour")
    if card not in d.stock.slots:
        raise IllegalMove(f"the {card} colour card is not face up in the {STOCK_SET} column", move)
    if not _free_disc(state, p):
        raise IllegalMove("a colour card takes one of your action discs (for good); you have none left this round", move)
    seat = state.seats[p]
    k = d.stock.slots.index(card)
    d = d._replace(stock=d.stock._replace(slots=_at(d.stock.slots, k, GAP)),
                   colour_cards=_at(d.colour_cards, p, d.colour_cards[p] + (card,)),
                   crates=_at(d.crates, COLOUR_IDS.index(card), p), boxed=_at(d.boxed, p, d.boxed[p] + 1))
    state = state._replace(seats=set_seat(state, p, discs=seat.discs - 1, tempo_now=0), drinks=d)
    crate = crate_drinks(card)
    events = [Event("colour_card_taken", {"seat": p, "card": card, "discs": seat.discs - 1})]
    if state.options.drinks_through_tower:
        state = _with(state, falling=crate, thrower=p)._replace(phase=DROP)
        return state, events + [Event("crate_thrown", {"seat": p, "drinks": list(crate)})]
    state = _with(state, supplies=_at(d.supplies, p, (sort_drinks(d.supplies[p] + crate))))
    return next_turn(state, events + [Event("drinks_received", {"seat": p, "drinks": list(crate)})])


def colour_card_info(state: State, move: Move) -> MoveInfo:
    return MoveInfo(why="why.tokyo_metro.colourCard", params={"count": 6})


def _shape_cards(state: State, p: int) -> list[str]:
    d = state.drinks
    return [c for c in (*d.stock.slots, *d.shape_cards[p]) if c in SHAPE_IDS and (c, 0) not in state.occupied]


def shape_card_moves(state: State, p: int) -> list[Move]:
    if state.drinks is None or not _free_disc(state, p):
        return []
    return [quick_move("shape_card", p, {"card": c}) for c in _shape_cards(state, p)]


def shape_card(state: State, move: Move) -> Applied:
    d = _drinks(state, move)
    p = move.player
    card = _card_arg(move, SHAPE_IDS, "shape")
    if card not in d.stock.slots and card not in d.shape_cards[p]:
        raise IllegalMove(f"the {card} shape card is neither face up in the {STOCK_SET} column nor one of yours", move)
    if (card, 0) in state.occupied:
        raise IllegalMove(f"the {card} shape card's one action space holds a disc this round", move)
    if not _free_disc(state, p):
        raise IllegalMove("a shape card takes one of your action discs; you have none left", move)
    free = tuple(q for q in free_builders(state) if q != p) + (p,)
    seat = state.seats[p]
    state = state._replace(seats=set_seat(state, p, used=seat.used + 1, tempo_now=0),
                           occupied=state.occupied | {(card, 0)}, placed=state.placed + ((card, 0, p),),
                           drinks=d._replace(free=free, free_round=state.round))
    return next_turn(state, [Event("shape_card_taken", {"seat": p, "card": card})])


def shape_card_info(state: State, move: Move) -> MoveInfo:
    return MoveInfo(why="why.tokyo_metro.shapeCard")


# --- the card action on the stock column's discard pile (bank_actions.py's card) ----------------

def discarded_shape_moves(state: State) -> list[int]:
    """The stock column's index when the card action can take its discard pile's top card."""
    d = state.drinks
    return [len(state.columns)] if d is not None and d.stock.discard[-1:] and d.stock.discard[-1] in SHAPE_IDS else []


def take_discarded_shape(t: Taking) -> Applied:
    state, p = t.state, t.p
    d = state.drinks
    if d is None:
        raise t.fail(f"there is no column {len(state.columns)} (columns 0 to {len(state.columns) - 1})")
    if not d.stock.discard:
        raise t.fail(f"the discard pile of the {STOCK_SET} column is empty")
    top = d.stock.discard[-1]
    if top not in SHAPE_IDS:
        raise t.fail(f"the card action takes a shape card from the {STOCK_SET} discard pile; its top card is "
                     f"the {top} colour card")
    seat = state.seats[p]
    if t.price > seat.yen:
        raise t.fail(f"this card costs {t.price} yen; you have {seat.yen}")
    d = d._replace(stock=d.stock._replace(discard=d.stock.discard[:-1]),
                   shape_cards=_at(d.shape_cards, p, d.shape_cards[p] + (top,)))
    return t.done(t.price, {}, [Event("card_taken", {"seat": p, "card": top, "column": len(state.columns),
                                                     "paid": t.price})], drinks=d)


# --- the tower ------------------------------------------------------------------------------------

def awaited_drop(state: State) -> ChanceDrop:
    d = state.drinks
    return ChanceDrop("drop", d.falling, (sort_drinks(d.tower.inside)))


def awaited(state: State) -> str:
    return (f"the drinks that came out of the tower after {seat_label(state, state.drinks.thrower)} threw "
            "in a crate (they and any freed ones go to their colours' crate holders)")


def drop(state: State, move: Move) -> Applied:
    d = _drinks(state, move)
    out = drinks_arg(move, "out")
    try:
        tower, result = d.tower.drop(d.falling, out)
    except IllegalMove as exc:
        raise IllegalMove(exc.reason, move) from None
    d = _to_owners(d._replace(tower=tower, falling=(), thrower=-1), result.out)
    state = state._replace(phase=ACTIONS, drinks=d)
    return next_turn(state, [Event("drop", result.to_json())])


def spill(state: State, move: Move) -> Applied:
    d = _drinks(state, move)
    out = drinks_arg(move, "out")
    try:
        tower = d.tower.spill(out)
    except IllegalMove as exc:
        raise IllegalMove(exc.reason, move) from None
    return state._replace(drinks=_to_owners(d._replace(tower=tower), out)), [Event("spill", {"out": list(out)})]


# --- the declaration's additions ------------------------------------------------------------------

PHASES = (Phase(DROP, awaited, outcomes=awaited_drop,
                ends="when the drop is entered: the drinks that came out go to their crate holders"),)

KINDS_DECLARED = (
    Kind("colour_card", colour_card, f"{BOOK}: Farbkarten", phases=(ACTIONS,), listed=colour_card_moves,
         info=colour_card_info),
    Kind("vend", vend, f"{BOOK}: Einen Verkaufsautomaten an einer Station bauen", phases=(ACTIONS,),
         listed=vend_moves, info=_build_info),
    Kind("shape_card", shape_card, f"{BOOK}: Formkarten", phases=(ACTIONS,), listed=shape_card_moves,
         info=shape_card_info),
    Kind("free_vend", free_vend, f"{BOOK}: Formkarten", phases=(ACTIONS,), listed=free_vend_moves, info=_build_info),
    Kind("drop", drop, f"{BOOK}: Farbkarten (our reading: the crate through the tower)", phases=(DROP,), chance=True),
    Kind("spill", spill, f"{BOOK}: Farbkarten (our reading: the crate through the tower)", chance=True, anytime=True),
)

# What a random playout picks from (playout.py): the listing of each of the variant's seat kinds.
VARIANT_LISTS = {"colour_card": colour_card_moves, "vend": vend_moves, "shape_card": shape_card_moves,
                 "free_vend": free_vend_moves}
