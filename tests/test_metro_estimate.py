"""TOKYO METRO hints: random playouts, the determinization of hidden information, the estimates.

The point of the determinization is that an estimate tells a player nothing they cannot see. The
tests prove it three ways: a determinized state looks exactly the same to the viewer as the real
one; the determinization of two states that look the same to a viewer is the same state (so it
reads nothing hidden); and two states that differ only in what a viewer cannot see (another
seat's sealed bid, the order of a discard pile) give the viewer identical estimates, although the
hidden difference does change how the game goes on (the control).
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import estimate
from companion.rules.engine import CHANCE, Move
from companion.rules.metro.estimate import group_key
from companion.rules.metro import game as metro, playout
from companion.rules.metro.estimate import determinize
from companion.rules.metro.playout import BID_UP_TO
from companion.rules.metro.state import ACTIONS, BID, OVER
from test_metro_support import NAMES, check_invariants, deal_all, new_game

def policy_move(state, rng):
    return playout.policy_move(metro.GAME, state, rng)


def play_out(state, rng):
    return estimate.play_out(metro.GAME, state, rng)


def estimate_final(state, seat, moves, rng, playouts, viewer):
    return metro.GAME.estimate(state, seat, moves, rng, playouts, viewer)


SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def advance(state, rng, moves):
    """``moves`` moves of the playout policy from ``state`` (fewer if the game ends)."""
    for _ in range(moves):
        if state.phase == OVER:
            break
        state = metro.apply(state, policy_move(state, rng))[0]
    return state


def position(players: int, seed: int, moves: int):
    return advance(metro.setup({"names": NAMES[:players]}), random.Random(seed), moves)


def until(state, rng, done):
    while not done(state):
        assert state.phase != OVER, "the game ended before the position looked for"
        state = metro.apply(state, policy_move(state, rng))[0]
    return state


def bid_position():
    """Round 2's bids in a 3-player game: seats 1 and 2 have bid in secret, seat 0 not yet."""
    rng = random.Random(4)
    state = until(metro.setup({"names": NAMES[:3]}), rng, lambda s: s.phase == BID and s.round == 2)
    state = metro.apply(state, Move("bid", 1, {"amount": 0}))[0]
    return metro.apply(state, Move("bid", 2, {"amount": 100}))[0]


def with_bid(state, seat, amount):
    seats = list(state.seats)
    seats[seat] = seats[seat]._replace(bid=amount)
    return state._replace(seats=tuple(seats))


# --- the playout policy -------------------------------------------------------------------------

@SETTINGS
@given(players=st.sampled_from([1, 2, 3, 4, 5]), seed=st.integers(0, 10_000))
def test_the_policy_plays_only_listed_legal_moves_to_the_end(players, seed):
    rng = random.Random(seed)
    state = metro.setup({"names": NAMES[:players]})
    while state.phase != OVER:
        move = policy_move(state, rng)
        actor = move.player
        if state.phase == BID:
            assert move.args["amount"] <= BID_UP_TO
        assert move in metro.legal_moves(state, actor), move
        state = metro.apply(state, move)[0]
    assert state.result is not None


def test_a_playout_is_a_function_of_its_generator():
    state = position(4, 1, 60)
    a = play_out(state, random.Random(9))
    b = play_out(state, random.Random(9))
    assert a == b and a.phase == OVER
    assert [s.yen for s in a.seats] == a.result["totals"]


# --- determinization ----------------------------------------------------------------------------

VIEWERS = st.sampled_from([None, 0, 1, 2])


@SETTINGS
@given(players=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 10_000), moves=st.integers(0, 400),
       viewer=VIEWERS, draw=st.integers(0, 2**32))
def test_a_determinized_state_looks_the_same_to_the_viewer_and_keeps_every_piece(players, seed, moves, viewer, draw):
    state = position(players, seed, moves)
    viewer = viewer if viewer is None or viewer < players else None
    det = determinize(state, viewer, random.Random(draw))
    assert metro.view(det, viewer) == metro.view(state, viewer)
    check_invariants(det)
    # The viewer's own moves are the same (the estimate applies them to the determinized state).
    if viewer is not None:
        assert metro.legal_moves(det, viewer) == metro.legal_moves(state, viewer)


@SETTINGS
@given(players=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 10_000), moves=st.integers(0, 400),
       viewer=VIEWERS, other=st.integers(0, 2**32), draw=st.integers(0, 2**32))
def test_the_determinization_reads_nothing_the_viewer_cannot_see(players, seed, moves, viewer, other, draw):
    """A state that looks the same to the viewer (another determinization of it) is determinized
    to exactly the same state with the same generator."""
    state = position(players, seed, moves)
    viewer = viewer if viewer is None or viewer < players else None
    twin = determinize(state, viewer, random.Random(other))
    assert determinize(state, viewer, random.Random(draw)) == determinize(twin, viewer, random.Random(draw))


def test_the_hidden_part_is_really_drawn_again():
    """Not a copy: other seats' sealed bids and the discard piles below the top change."""
    state = bid_position()
    bids = {determinize(state, 0, random.Random(s)).seats[1].bid for s in range(40)}
    assert len(bids) > 1 and all(0 <= b <= BID_UP_TO for b in bids)
    assert {determinize(state, 1, random.Random(s)).seats[1].bid for s in range(10)} == {0}  # my own bid stays
    late = until(position(2, 3, 0), random.Random(3), lambda s: any(len(c.discard) >= 3 for c in s.columns))
    piles = {tuple(c.discard for c in determinize(late, None, random.Random(s)).columns) for s in range(20)}
    assert len(piles) > 1


# --- estimates ----------------------------------------------------------------------------------

def test_estimates_do_not_leak_another_seats_sealed_bid():
    low = bid_position()                      # seat 2 bid 100
    high = with_bid(low, 2, low.seats[2].yen)  # seat 2 bid everything it has
    assert metro.view(low, 0) == metro.view(high, 0)
    # Control: the hidden bid does change how the game goes on.
    assert any(play_out(low, random.Random(s)).result["totals"] != play_out(high, random.Random(s)).result["totals"]
               for s in range(5))
    moves = metro.legal_moves(low, 0)[:6]
    a = estimate_final(low, 0, moves, random.Random(11), 60, viewer=0)
    b = estimate_final(high, 0, moves, random.Random(11), 60, viewer=0)
    assert a == b
    # The table view sees no bid at all: the same for seat 0's and seat 2's hidden bids.
    a = estimate_final(low, 0, [], random.Random(2), 20, viewer=None)
    b = estimate_final(with_bid(high, 1, 300), 0, [], random.Random(2), 20, viewer=None)
    assert a == b


def test_estimates_do_not_leak_the_order_of_a_discard_pile():
    state = until(position(2, 5, 0), random.Random(5),
                  lambda s: s.phase == ACTIONS and any(len(c.discard) >= 3 for c in s.columns))
    c = next(i for i, col in enumerate(state.columns) if len(col.discard) >= 3)
    col = state.columns[c]
    below = col.discard[:-1]
    shuffled = (below[1:] + below[:1]) + col.discard[-1:]
    columns = list(state.columns)
    columns[c] = col._replace(discard=shuffled)
    other = state._replace(columns=tuple(columns))
    assert other != state and metro.view(other, None) == metro.view(state, None)
    seat = state.order[state.turn]
    moves = metro.legal_moves(state, seat)
    assert estimate_final(state, seat, moves, random.Random(3), 40, seat) == \
        estimate_final(other, seat, moves, random.Random(3), 40, seat)


def test_an_estimate_spreads_its_playouts_over_the_groups_and_is_reproducible():
    state = until(position(4, 2, 0), random.Random(2), lambda s: s.phase == ACTIONS)
    seat = state.order[state.turn]
    moves = metro.legal_moves(state, seat)
    groups = {group_key(m) for m in moves}
    assert len(groups) < len(moves)  # some card action has several targets
    est = estimate_final(state, seat, moves, random.Random(1), 3 * len(groups), seat)
    assert est == estimate_final(state, seat, moves, random.Random(1), 3 * len(groups), seat)
    assert est["playouts"] == 3 * len(groups) == est["overall"]["n"]
    assert sum(m["n"] for m in est["moves"]) == est["playouts"]
    assert [g["n"] for g in est["groups"]] == [3] * len(groups)
    assert [m["move"] for m in est["moves"]] == [m.to_json() for m in moves]
    for m in est["moves"]:
        if m["n"]:
            assert m["low"] <= m["mean"] <= m["high"] and m["sd"] >= 0
        else:
            assert m["mean"] is None and m["low"] is None
    assert est["overall"]["low"] <= est["overall"]["mean"] <= est["overall"]["high"]


def test_the_estimate_is_the_final_yen_after_the_end_scoring():
    """Before the last train phase, with nobody to board or get off, the rest of the game is
    certain: every playout ends with the seat's final total, which the estimate gives exactly."""
    for seed in range(40):
        state = until(metro.setup({"names": NAMES[:2]}), random.Random(seed),
                      lambda s: s.phase == "trains" and s.run is None and s.round == s.rules.rounds)
        preview = metro.train_phase_preview(state)
        if not preview["riders"] and not preview["boarding"] and any(preview["owner_income"]):
            break
    else:
        pytest.fail("no quiet last train phase with a station payout in 40 games")
    seat = state.order[0]
    run = metro.legal_moves(state, seat)
    final = metro.apply(state, run[0])[0]
    assert final.phase == OVER
    for p in range(2):
        est = estimate_final(state, p, run if p == seat else [], random.Random(4), 12, p)
        assert est["overall"]["n"] == 12
        assert est["overall"]["low"] == est["overall"]["high"] == est["overall"]["mean"] == final.result["totals"][p]
        assert est["overall"]["sd"] == 0


def test_a_phone_may_ask_only_about_its_own_seat_and_needs_a_playout():
    state = bid_position()
    with pytest.raises(ValueError, match="own seat"):
        estimate_final(state, 0, [], random.Random(1), 10, viewer=1)
    with pytest.raises(ValueError, match="at least one playout"):
        estimate_final(state, 0, [], random.Random(1), 0, viewer=0)


def test_the_game_surface_offers_the_estimate_and_its_cost():
    state = deal_all(new_game(4))
    assert metro.GAME.estimate_cost(state) == 4 * 6
    est = metro.GAME.estimate(state, 0, metro.legal_moves(state, 0)[:2], random.Random(0), 4, 0)
    assert est["seat"] == 0 and len(est["moves"]) == 2
    assert metro.legal_moves(state, CHANCE) == []
