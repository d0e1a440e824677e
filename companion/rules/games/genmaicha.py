"""GENMAICHA (rule book 002): brew tea recipes from a 3x3 grid of stock cards.

Nine stock cards are dealt face up into a 3x3 grid (chance, one by one); every row and every
column is a recipe of three ingredients (a colour or a shape), with yen beside it (rows 300 /
200 / 100 from the top, columns 400 / 500 / 600 from the left). Each round one crate per player
is filled from the bag (chance, a drink at a time; how many per crate is the option
``drinks_per_crate``, since our copy lacks the book's table), everyone makes a sealed bid, all
bids open at once and are paid, and the players take a crate each, the highest bid first. Then,
in the same order, each brews as many recipes as their drinks allow: a drink counts once as its
colour and once as its shape; the drinks used go back into the bag; the line pays its yen and
drops by 100. 3 rounds (4 with two players); the most yen wins, then the most drinks left.
Variants: Matcha-iri (``matcha``: a row brewed with the card above or below one of its cards
takes the yen in that gap) and the tea market (``market``: the first to brew a recipe may put a
brand on it with a stake; the next other brewer's brew pays the owner). The tea ceremony (``ceremony``)
is in genmaicha_ceremony.py.

>>> s = setup({"names": ["Aki", "Ben"]})
>>> s.phase, s.options.total_rounds, [s.seats[0].yen, s.seats[1].yen]
('deal', 4, [500, 500])
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ...drinks import CARD_IDS
from ..declared import Declared, Kind, Phase
from ..engine import CHANCE, ChanceSpec, Event, IllegalMove, Move, MoveInfo, Pending, uniform
from .common import (YEN_STEP, arg_drinks, arg_int, arg_list, arg_text, seat_in, seat_names, set_at, sort_drinks,
                     top)
from .genmaicha_recipes import GAPS, LINES, line_cards, matcha_card, pick_cover, smallest_cover
from . import genmaicha_ceremony as ceremony
# (every phase imported: the tests and the property playouts read them from this module)
from .genmaicha_state import (BID, BID_TIE, BREW, DEAL, DRAFT, FILL, OVER, PEEK, REVEAL,  # noqa: F401
                              Brand, Options, Seat, State)
from .sealed import Bidding, bid_moves, check_bid, redraw_bids

NAME = "genmaicha"
TITLE = "GENMAICHA"
PLAYERS = (2, 3, 4, 5, 6)
RULE = "002 GENMAICHA"


def start(opts: Options, config: Mapping[str, Any]) -> State:
    for name in ("row_yen", "col_yen", "matcha_yen"):
        if len(getattr(opts, name)) != 3:
            raise IllegalMove(f"option {name} needs 3 amounts, not {len(getattr(opts, name))}")
    names = seat_names(config, opts.players)
    lines = tuple(opts.row_yen) + tuple(opts.col_yen)
    pots = tuple(opts.matcha_yen[int(g[1])] for g in GAPS) if opts.matcha else (0,) * len(GAPS)
    seats = tuple(Seat(n, opts.start_yen) for n in names)
    # The bank pays out everything on the table at the start, so yen are conserved from zero.
    bank = -(opts.start_yen * opts.players + sum(lines) + sum(pots))
    return State(opts, seats, bank=bank, lines=lines, pots=pots, crates=((),) * opts.players)


# --- who acts, what chance may bring -----------------------------------------------------------

def _in_turn(state: State) -> list[Pending]:
    return [Pending(state.order[state.turn])]


def _bidders(state: State) -> list[Pending]:
    return [Pending(p) for p in state.bidding.waiting()]


def _deals(state: State) -> ChanceSpec:
    return uniform(Move("deal_card", CHANCE, {"card": c}) for c in CARD_IDS if c not in state.grid)


def _draws(state: State) -> ChanceSpec:
    return uniform(Move("draw", CHANCE, {"drink": d}) for d in sort_drinks(state.bag))


def _coins(state: State) -> ChanceSpec:
    return uniform(Move("tie_break", CHANCE, {"seat": p}) for p in state.tied)


def _filling(state: State) -> int | None:
    """The crate the next drawn drink goes into, or None when the crates are filled (or the bag is empty)."""
    if not state.bag:
        return None
    return next((k for k, c in enumerate(state.crates) if len(c) < state.options.per_crate), None)


# --- dealing and filling -----------------------------------------------------------------------

def _deal_card(state: State, move: Move) -> tuple[State, list[Event]]:
    card = arg_text(move, "card", [c for c in CARD_IDS if c not in state.grid])
    state = replace(state, grid=state.grid + (card,))
    events = [Event("card_dealt", {"card": card, "cell": len(state.grid) - 1})]
    if len(state.grid) == 9:
        state = _begin_round(ceremony.start_hidden(state))
    return state, events


def _begin_round(state: State) -> State:
    state = replace(state, phase=FILL, crates=((),) * state.n, taken=(), order=(), turn=0, fresh=())
    return _fill_done(state) if _filling(state) is None else state


def _fill_done(state: State) -> State:
    n = state.n
    return replace(state, phase=BID, bidding=Bidding(tuple(range(n))), totals=(0,) * n, rebids=(0,) * n,
                   coin=(), tied=())


def _draw(state: State, move: Move) -> tuple[State, list[Event]]:
    d = arg_text(move, "drink", sort_drinks(state.bag))
    k = _filling(state)
    crates = tuple(c + (d,) if i == k else c for i, c in enumerate(state.crates))
    state = replace(state, bag=state.bag - {d}, crates=crates)
    events = [Event("crate_filled", {"crate": k, "drink": d})]
    return (_fill_done(state) if _filling(state) is None else state), events


# --- the sealed bids and the order ---------------------------------------------------------------

def _available(state: State, p: int) -> int:
    """What ``p`` may still bid: their yen (bids already paid), or yen less bids made when bids are not paid."""
    s = state.seats[p]
    return s.yen if state.options.bids_paid == "all" else s.yen - state.totals[p]


def _bid_list(state: State, seat: int) -> list[Move]:
    return bid_moves(seat, _available(state, seat))


def _bid(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    bidding = state.bidding.place(p, check_bid(move, _available(state, p)))
    events = [Event("bid_placed", {"seat": p})]
    if not bidding.complete():
        return replace(state, bidding=bidding), events
    bids = dict(bidding.sealed)
    totals = tuple(t + bids.get(p, 0) for p, t in enumerate(state.totals))
    seats, bank = state.seats, state.bank
    if state.options.bids_paid == "all":
        seats = tuple(replace(s, yen=s.yen - bids.get(p, 0)) for p, s in enumerate(seats))
        bank += sum(bids.values())
    state = replace(state, seats=seats, bank=bank, totals=totals, bidding=None)
    events.append(Event("bids_opened", {"bids": {str(k): v for k, v in sorted(bids.items())},
                                        "totals": list(totals)}))
    return _settle_order(state, events)


def _unsettled(state: State) -> tuple[int, ...]:
    """The highest group of seats with equal totals that the coin has not yet ordered."""
    for total in sorted(set(state.totals), reverse=True):
        group = tuple(p for p in range(state.n) if state.totals[p] == total and p not in state.coin)
        if len(group) > 1:
            return group
    return ()


def _settle_order(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    group = _unsettled(state)
    if not group:
        rank = {p: i for i, p in enumerate(state.coin)}
        order = tuple(sorted(range(state.n), key=lambda p: (-state.totals[p], rank.get(p, len(rank)))))
        state = replace(state, phase=DRAFT, order=order, turn=0, tied=())
        return state, events + [Event("order_set", {"order": list(order)})]
    if min(state.rebids[p] for p in group) < state.options.max_rebids:
        rebids = tuple(r + 1 if p in group else r for p, r in enumerate(state.rebids))
        state = replace(state, phase=BID, bidding=Bidding(group), rebids=rebids)
        return state, events + [Event("rebid", {"seats": list(group)})]
    return replace(state, phase=BID_TIE, tied=group), events


def _tie_break(state: State, move: Move) -> tuple[State, list[Event]]:
    p = seat_in(move, state.tied)
    state = replace(state, coin=state.coin + (p,))
    return _settle_order(state, [Event("tie_break", {"seat": p})])


# --- the crate draft ------------------------------------------------------------------------------

def _crates_left(state: State) -> list[int]:
    return [k for k in range(len(state.crates)) if k not in state.taken]


def _crate_list(state: State, seat: int) -> list[Move]:
    return [Move("take_crate", seat, {"crate": k}) for k in _crates_left(state)]


def _take_crate(state: State, move: Move) -> tuple[State, list[Event]]:
    p, k = move.player, arg_int(move, "crate")
    if k not in _crates_left(state):
        raise IllegalMove(f"take one of the crates still there ({', '.join(map(str, _crates_left(state)))}), "
                          f"not {k}", move)
    got = state.crates[k]
    seats = set_at(state.seats, p, drinks=tuple(sort_drinks(state.seats[p].drinks + got)))
    crates = tuple(() if i == k else c for i, c in enumerate(state.crates))
    state = replace(state, seats=seats, crates=crates, taken=state.taken + (k,), turn=state.turn + 1)
    if state.turn == state.n:
        state = replace(state, phase=BREW, turn=0)
    return state, [Event("crate_taken", {"seat": p, "crate": k, "drinks": list(got)})]


# --- brewing ---------------------------------------------------------------------------------------

def _needs(state: State, lines: tuple[str, ...], gaps: tuple[str, ...]) -> list[str]:
    needs = [c for line in lines for c in line_cards(state.grid, line)]
    return needs + [matcha_card(state.grid, g, lines) for g in gaps]


def _brew_args(state: State, move: Move) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    lines = arg_list(move, "lines")
    if not lines or any(x not in LINES for x in lines) or len(set(lines)) != len(lines):
        raise IllegalMove(f"'lines' must name one or more different recipes of {', '.join(LINES)}", move)
    gaps = arg_list(move, "matcha", ())
    if gaps and not state.options.matcha:
        raise IllegalMove("Matcha-iri is not played in this game (option matcha)", move)
    if any(g not in GAPS for g in gaps) or len(set(gaps)) != len(gaps):
        raise IllegalMove(f"'matcha' must name different gaps of {', '.join(GAPS)}", move)
    for g in gaps:
        if matcha_card(state.grid, g, lines) is None:
            raise IllegalMove(f"the gap {g} adds to exactly one brewed row beside it (a row above or below it)", move)
        if not state.pots[GAPS.index(g)]:
            raise IllegalMove(f"the gap {g} holds no yen any more", move)
    return tuple(lines), tuple(gaps), arg_drinks(move, allow_empty=False)


def _brew(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    lines, gaps, drinks = _brew_args(state, move)
    missing = [d for d in drinks if d not in state.seats[p].drinks]
    if missing:
        raise IllegalMove(f"you do not have {', '.join(missing)}", move)
    needs = _needs(state, lines, gaps)
    column = ceremony.check_attempt(state, move, lines)
    if (pick_cover(needs, drinks) is None) if column is None else not ceremony.could_be(state, needs, drinks, column):
        raise IllegalMove(f"these drinks do not brew {', '.join(lines)}: each needs {', '.join(needs)}, one drink "
                          "per ingredient (a drink counts once as its colour and once as its shape), and every "
                          "drink named must be used", move)
    o = state.options
    got, lines_yen, pots, bank = 0, list(state.lines), list(state.pots), state.bank
    seats = set_at(state.seats, p, drinks=tuple(d for d in state.seats[p].drinks if d not in drinks))
    paid = {}
    for line in lines:
        i = LINES.index(line)
        paid[line] = lines_yen[i]
        got += lines_yen[i]
        lines_yen[i] = max(0, lines_yen[i] - o.brew_drop)
        bank -= lines_yen[i]          # the line is laid out again, less the drop
    for g in gaps:
        got += pots[GAPS.index(g)]
        pots[GAPS.index(g)] = 0
    brands, events = list(state.brands), []
    for b in state.brands:
        if b.line in lines and b.seat != p:
            brands.remove(b)
            extra = b.amount
            if o.brand_paid_by == "brewer":
                extra = min(b.amount, seats[p].yen + got)
                got -= extra
            else:
                bank -= extra
            seats = set_at(seats, b.seat, yen=seats[b.seat].yen + b.amount + extra)
            events.append(Event("brand_paid", {"seat": b.seat, "line": b.line, "paid": b.amount + extra}))
    seats = set_at(seats, p, yen=seats[p].yen + got)
    fresh = state.fresh + tuple(x for x in lines if x not in state.brewed) if o.market else ()
    last = {"seat": p, "lines": list(lines), "matcha": list(gaps), "drinks": list(drinks), "paid": got}
    state = replace(state, seats=seats, lines=tuple(lines_yen), pots=tuple(pots), bank=bank,
                    bag=state.bag | set(drinks), brewed=state.brewed | set(lines), fresh=fresh,
                    brands=tuple(brands), last_brew=last)
    events = [Event("brewed", {**last, "line_yen": paid})] + events
    if column is not None:
        state, more = ceremony.begin_attempt(state, p, column, needs, drinks)
        events += more
    return state, events


def _brand(state: State, move: Move) -> tuple[State, list[Event]]:
    p, o = move.player, state.options
    if not o.market:
        raise IllegalMove("the tea market is not played in this game (option market)", move)
    line = arg_text(move, "line", LINES)
    if line not in state.fresh:
        raise IllegalMove(f"only a recipe you were the first to brew, this turn, may get your brand; not {line}",
                          move)
    amount = arg_int(move, "amount")
    yen = state.seats[p].yen
    if amount < o.brand_min or amount > yen or amount % YEN_STEP:
        raise IllegalMove(f"put {o.brand_min} to {yen} yen on a brand, in steps of {YEN_STEP}, not {amount}", move)
    state = replace(state, seats=set_at(state.seats, p, yen=yen - amount),
                    brands=state.brands + (Brand(line, p, amount),),
                    fresh=tuple(x for x in state.fresh if x != line))
    return state, [Event("branded", {"seat": p, "line": line, "amount": amount})]


def _done(state: State, move: Move) -> tuple[State, list[Event]]:
    state = replace(state, turn=state.turn + 1, fresh=())
    events = [Event("brewing_done", {"seat": move.player})]
    if state.turn < state.n:
        return state, events
    if state.round >= state.options.total_rounds:
        return _finish(state, events)
    state = _begin_round(replace(state, round=state.round + 1))
    return state, events + [Event("round_started", {"round": state.round})]


def _finish(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    seats, bank = state.seats, state.bank
    for b in state.brands:
        if state.options.brand_left == "returned":
            seats = set_at(seats, b.seat, yen=seats[b.seat].yen + b.amount)
        else:
            bank += b.amount
    yen = [s.yen for s in seats]
    best = top(yen)
    winners = top({p: len(seats[p].drinks) for p in best})
    final = {"yen": yen, "drinks_left": [len(s.drinks) for s in seats]}
    state = replace(state, seats=seats, bank=bank, brands=(), phase=OVER, winners=winners, final=final)
    return state, events + [Event("game_over", {"winners": list(winners), **final})]


def _brew_list(state: State, seat: int) -> list[Move]:
    held = state.seats[seat].drinks
    moves = []
    for line in LINES:
        found = smallest_cover(_needs(state, (line,), ()), held)
        if found:
            moves.append(Move("brew", seat, {"lines": (line,), "drinks": found}))
        if state.options.matcha and line.startswith("row"):
            for g in GAPS:
                if state.pots[GAPS.index(g)] and matcha_card(state.grid, g, (line,)) is not None:
                    found = smallest_cover(_needs(state, (line,), (g,)), held)
                    if found:
                        moves.append(Move("brew", seat, {"lines": (line,), "matcha": (g,), "drinks": found}))
    if state.options.ceremony:
        for c in range(3):
            card = state.hidden[c] if (seat, c) in state.seen and c not in state.revealed else None
            found = card and smallest_cover(_needs(state, (f"col{c}",), ()) + [card], held)
            if found:
                moves.append(Move("brew", seat, {"lines": (f"col{c}",), "ceremony": c, "drinks": found}))
    return moves


def _brand_list(state: State, seat: int) -> list[Move]:
    o, yen = state.options, state.seats[seat].yen
    return [Move("brand", seat, {"line": x, "amount": a}) for x in state.fresh
            for a in range(o.brand_min, yen + 1, YEN_STEP)][:12]


def _done_list(state: State, seat: int) -> list[Move]:
    return [Move("done", seat, {})]


# --- what a move costs and pays --------------------------------------------------------------------

def _bid_info(state: State, move: Move) -> MoveInfo:
    amount = int(move.args.get("amount", 0))
    return MoveInfo(cost=amount, why="why.genmaicha.bid", params={"amount": amount})


def _brew_info(state: State, move: Move) -> MoveInfo:
    lines = [x for x in move.args.get("lines", ()) if x in LINES]
    gaps = [g for g in move.args.get("matcha", ()) if g in GAPS]
    pays = sum(state.lines[LINES.index(x)] for x in lines) + sum(state.pots[GAPS.index(g)] for g in gaps)
    return MoveInfo(cost=0, pays_up_to=pays, why="why.genmaicha.brew",
                    params={"n": len(move.args.get("drinks", ())), "drop_yen": state.options.brew_drop})


# --- what everyone sees ------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    acting = state.order[state.turn] if state.phase in (DRAFT, BREW) else None
    players = [{"seat": p, "name": s.name, "yen": s.yen, "drinks": list(s.drinks),
                "bid_total": state.totals[p] if state.totals and state.phase not in (FILL,) else 0,
                "has_bid": bool(state.bidding and state.bidding.has_bid(p)),
                "bid": state.bidding.amount(p) if state.bidding and viewer == p else None,
                "turn": p == acting} for p, s in enumerate(state.seats)]
    return {
        "game": NAME, "phase": state.phase, "round": state.round, "rounds": state.options.total_rounds,
        "players": players, "bank": state.bank, "turn": acting,
        "grid": [list(state.grid[r * 3:r * 3 + 3]) for r in range(3) if len(state.grid) > r * 3],
        "line_yen": dict(zip(LINES, state.lines)),
        "matcha_yen": dict(zip(GAPS, state.pots)) if state.options.matcha else None,
        "crates": [{"crate": k, "drinks": list(c), "taken": k in state.taken} for k, c in enumerate(state.crates)],
        "bag": len(state.bag),
        "bidding": state.bidding.view(viewer) if state.bidding else None, "tied": list(state.tied),
        "order": list(state.order),
        "hidden_cards": ceremony.view_hidden(state, viewer),
        "brands": [{"line": b.line, "seat": b.seat, "amount": b.amount} for b in state.brands],
        "last_brew": dict(state.last_brew) if state.last_brew else None,
        "final": dict(state.final) if state.final else None,
        "winners": list(state.winners), "over": state.phase == OVER,
    }


def payouts(state: State) -> dict:
    return {"yen": [s.yen for s in state.seats], "final": state.phase == OVER, "winners": list(state.winners),
            "drinks_left": [len(s.drinks) for s in state.seats]}


def _redraw(state: State, viewer: int | None, rng) -> State:
    """What ``viewer`` cannot know drawn again: the other seats' sealed bids, and the hidden cards
    of the tea ceremony they have not seen (forgotten: a playout draws them)."""
    return ceremony.forget_unseen(redraw_bids(state, viewer, rng), viewer)


def _playout_cost(state: State) -> int:
    return 4 * state.n * max(1, state.options.total_rounds - state.round + 1)


GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(DEAL, "the next stock card of the grid", outcomes=_deals, ends="when nine cards lie in the grid"),
        Phase(FILL, "the next drink drawn from the bag into a crate", outcomes=_draws,
              ends="when every crate holds its drinks (or the bag is empty)"),
        Phase(BID, "the sealed bids", acting=_bidders,
              ends="when every bidder has bid: all open at once; the tied add a bid"),
        Phase(BID_TIE, "a coin to decide between the tied bidders", outcomes=_coins,
              ends="when the order of every bidder is known"),
        Phase(DRAFT, "the player whose turn it is to take a crate", acting=_in_turn,
              ends="when everyone has taken a crate"),
        Phase(BREW, "the player whose turn it is to brew", acting=_in_turn,
              ends="when everyone has finished brewing: the next round, or the end"),
        Phase(PEEK, "the hidden card seen, entered on that player's phone", acting=ceremony.looker,
              outcomes=ceremony.seen_cards, ends="when the card is entered: the player brews on"),
        Phase(REVEAL, "the hidden card of a four-card recipe, entered on the brewer's phone", acting=ceremony.brewer,
              outcomes=ceremony.tried_cards, ends="when the card is entered: the bonus, or the card stays hidden"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("deal_card", _deal_card, f"{RULE}: VORBEREITUNG", phases=(DEAL,), chance=True),
        Kind("draw", _draw, f"{RULE}: BIETRUNDE", phases=(FILL,), chance=True),
        Kind("bid", _bid, f"{RULE}: BIETRUNDE", phases=(BID,), listed=_bid_list, info=_bid_info, secret=True,
             open_events=("bids_opened", "rebid", "order_set")),
        Kind("tie_break", _tie_break, f"{RULE}: BIETRUNDE", phases=(BID_TIE,), chance=True),
        Kind("take_crate", _take_crate, f"{RULE}: BIETRUNDE", phases=(DRAFT,), listed=_crate_list),
        Kind("brew", _brew, f"{RULE}: BRÜHRUNDE", phases=(BREW,), listed=_brew_list, info=_brew_info),
        Kind("brand", _brand, f"{RULE}: TEEMARKT", phases=(BREW,), listed=_brand_list),
        Kind("peek", ceremony.peek, f"{RULE}: TEEZEREMONIE", phases=(BREW,), listed=ceremony.peek_moves),
        Kind("peek_card", ceremony.peek_card, f"{RULE}: TEEZEREMONIE", phases=(PEEK,), chance=True),
        Kind("ceremony_card", ceremony.ceremony_card, f"{RULE}: TEEZEREMONIE", phases=(REVEAL,), chance=True,
             open_events=("ceremony_won", "ceremony_failed")),
        Kind("done", _done, f"{RULE}: BRÜHRUNDE", phases=(BREW,), listed=_done_list),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: [s.name for s in state.seats],
    redraw=_redraw, playout_cost=_playout_cost,
    board_events=frozenset({"card_dealt", "crate_filled", "crate_taken", "brewed", "branded"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
