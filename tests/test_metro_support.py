"""Helpers for the TOKYO METRO tests (imported by the other test_metro_* files), and the
invariants every state must keep: yen conserved, every piece in exactly one place.

Scenarios are built the way a table enters them (chance deals, bids, placements) and, where a
test needs a particular position, by replacing parts of the immutable state (``_replace``):
the state is plain named tuples, so a test can say exactly which cards lie face up or where a
meeple stands.
"""
from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from companion.rules.engine import CHANCE, IllegalMove, Move
from companion.rules.metro import game as metro
from companion.rules.metro.state import ACTIONS, BID, DEAL, MOVEMENT, OVER, TIE, TRAINS, Column

NAMES = ["Aki", "Ben", "Chie", "Dai", "Emi"]


def new_game(n: int = 4, **options):
    config = {"names": NAMES[:n]}
    if options:
        config["options"] = options
    return metro.setup(config)


def chance(kind, **args):
    return Move(kind, CHANCE, args)


def apply(state, move):
    return metro.apply(state, move)[0]


def deal_all(state):
    """Turn up cards (the first outcome each time) until the columns are full."""
    while state.phase == DEAL:
        state = apply(state, metro.chance(state).outcomes[0][0])
    return state


def bid_all(state, bids):
    for p, amount in enumerate(bids):
        state = apply(state, Move("bid", p, {"amount": amount}))
    return state


def break_ties(state, firsts=None):
    """Break round-1 ties: the seats in ``firsts`` win their ties in that order, else the first listed."""
    firsts = list(firsts or [])
    while state.phase == TIE:
        group = next(g for g in state.ties if len(g) > 1)
        pick = next((p for p in firsts if p in group), group[0])
        state = apply(state, chance("tie_break", seat=pick))
    return state


def field(state, col, row):
    return state.board.field(col, row)


def start_fields(state):
    return list(state.board.start_fields)


def to_actions(state, bids=None, places=None):
    """From a fresh game to round 1's action phase: deal, bid (default: seat p bids 100*(n-p), so
    the order is 0, 1, 2, ...), place meeples (default: the first start fields, far apart)."""
    n = len(state.seats)
    state = deal_all(state)
    if state.phase == BID:
        state = bid_all(state, bids or [100 * (n - p) for p in range(n)])
        state = break_ties(state)
    assert state.phase == MOVEMENT
    fields = start_fields(state)
    places = places or [fields[3 * k] for k in range(n)]
    for p in state.order:
        state = apply(state, Move("place", p, {"field": places[p]}))
    assert state.phase == ACTIONS
    return state


def with_cards(state, column, cards):
    """Column ``column`` shows exactly ``cards`` face up (bottom to top); the cards it showed go
    back into its deck, and the wanted ones come out of wherever they were."""
    cols = list(state.columns)
    col = cols[column]
    back = [c for c in col.slots if c not in cards]
    groups = [tuple(c for c in g if c not in cards) for g in col.deck]
    dots = state.rules.deck.cards
    for c in back:
        k = dots[c].dots - 1
        groups[k] = tuple(sorted(groups[k] + (c,)))
    cols[column] = Column(tuple(groups), tuple(cards), tuple(c for c in col.discard if c not in cards))
    return state._replace(columns=tuple(cols))


def with_seat(state, p, **changes):
    seats = list(state.seats)
    seats[p] = seats[p]._replace(**changes)
    return state._replace(seats=tuple(seats))


def with_line(state, letter, **changes):
    i = state.board.line_index[letter]
    lines = list(state.lines)
    lines[i] = lines[i]._replace(**changes)
    return state._replace(lines=tuple(lines))


def with_turn(state, p):
    return state._replace(turn=state.order.index(p))


def line(state, letter):
    return state.lines[state.board.line_index[letter]]


def station_index(state, sid):
    return state.board.station_index[sid]


def assert_illegal(state, move, *words):
    """The move is refused with a reason naming what is wrong, and the state is untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        metro.apply(state, move)
    for word in words:
        assert word.lower() in err.value.reason.lower(), err.value.reason
    assert state == before
    return err.value


def total_yen(state):
    """Bank + players + speculation stakes + bid bonus yen + yen set aside by sales (OSAKA METRO):
    constant through a game."""
    return (state.bank + sum(s.yen for s in state.seats) + sum(st for ls in state.lines for _, st in ls.specs)
            + sum(s.bonus for s in state.seats) + sum(s.set_aside for s in state.seats))


def check_invariants(state):
    rules, board, opts = state.rules, state.board, state.options
    n = len(state.seats)
    assert total_yen(state) == opts.bank_yen, "yen created or lost"
    if state.phase != OVER:
        assert all(s.yen >= 0 for s in state.seats), [s.yen for s in state.seats]
    # Action cards: each in exactly one place.
    where = Counter()
    for col in state.columns:
        for g in col.deck:
            where.update(g)
        where.update(col.slots)
        where.update(col.discard)
    for s in state.seats:
        where.update(s.cards)
    assert set(where) == set(rules.deck.cards) and all(v == 1 for v in where.values()), where
    # Pyramids, discs, meeples, tokens.
    for p, s in enumerate(state.seats):
        assert s.pyramids + sum(o == p for o in state.pyramids) == opts.pyramids
        # OSAKA METRO's invest_disc returns discs to the box for good (Seat.boxed).
        assert s.discs + state.disc_supply[p] + s.boxed == opts.start_discs + opts.extra_discs
        assert opts.start_discs - s.boxed <= s.discs <= opts.max_discs
        on_cards = sum(rules.deck.cards[c].actions[i].spaces for c, i, q in state.placed if q == p)
        assert s.used == on_cards <= s.discs, (p, s.used, on_cards)
        assert s.specs_left + sum(q == p for ls in state.lines for q, _ in ls.specs) == opts.speculations
        assert not (s.field >= 0 and s.riding >= 0)
        if s.riding >= 0:
            ls = state.lines[s.riding]
            assert (ls.second if s.vehicle else ls.train) >= 0, "a rider in a train that is not on the board"
        if state.round > 1 or state.phase in (ACTIONS, TRAINS):
            assert s.field >= 0 or s.riding >= 0, "a meeple nowhere"
        for c, i in s.discounts:
            assert (c, i) in state.occupied and rules.deck.cards[c].actions[i].kind == "discount"
    fields = [s.field for s in state.seats if s.field >= 0]
    assert len(fields) == len(set(fields)), "two meeples on one field"
    assert state.tempo_supply + sum(s.tempo for s in state.seats) + sum(ls.tempo for ls in state.lines) == opts.tempo_tokens
    assert state.bicycles + sum(s.bicycle for s in state.seats) == opts.bicycles
    assert state.loan_supply + sum(s.loans for s in state.seats) == opts.loan_tokens
    for i, ls in enumerate(state.lines):
        ln = board.lines[i]
        assert ls.tempo + len(ls.specs) <= ln.disc_spaces
        assert len(set(ls.holders)) == len(ls.holders) <= ln.shares
        assert not set(ls.holders) & {p for p, _ in ls.specs}, "a speculator holds a share of the same line"
        assert ls.value >= 0
        if ls.holders:
            assert ls.train >= 0
        if ls.train >= 0:
            assert 0 <= ls.train < len(ln.stops) and ls.dir in (1, -1)
        # A pair of trams or buses is on the board together, or not at all.
        assert (ls.second >= 0) == (ln.vehicles == 2 and ls.train >= 0)
        if ls.second >= 0:
            assert 0 <= ls.second < len(ln.stops) and ls.second_dir in (1, -1)
        if state.rules.trains_stay and state.phase != OVER:
            assert not (state.last_run and state.last_run.left), "a train left although trains stay"
    for p, s in enumerate(state.seats):
        for c, i in s.copies:
            assert (c, i) in state.occupied and rules.deck.cards[c].actions[i].kind == "copy"
    # Occupied actions are on cards that are face up or in front of a player.
    visible = {c for col in state.columns for c in col.slots} | {c for s in state.seats for c in s.cards}
    assert all(c in visible for c, _ in state.occupied)
    # Views: JSON, and no bid leaks to others.
    table = metro.view(state, None)
    json.dumps(table)
    assert all(p["bid"] is None for p in table["players"])
    for p in range(n):
        mine = metro.view(state, p)["players"]
        assert all(q["bid"] is None for i, q in enumerate(mine) if i != p)
    json.dumps(metro.payouts(state))


def test_support_scenario_reaches_round_one_actions_with_invariants():
    state = to_actions(new_game(4))
    assert state.phase == ACTIONS and state.order == (0, 1, 2, 3)
    check_invariants(state)
    assert total_yen(state) == state.options.bank_yen


def test_with_cards_keeps_every_card_in_one_place():
    state = deal_all(new_game(3))
    state = with_cards(state, 0, ("GM9", "GM1"))
    assert state.columns[0].slots == ("GM9", "GM1")
    check_invariants(state)
