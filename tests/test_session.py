"""The table session over a real store: every change is committed before it is adopted,
a refused change stores nothing, and the store folds back to the same game."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.observation import Observation
from companion.rules.engine import CHANCE, IllegalMove, Move
from companion.table.log import fold
from companion.table.session import Forbidden, TableSession
from companion.table.store import EventStore


def test_a_refused_move_stores_nothing_and_changes_nothing(store):
    session = TableSession.create(store, "pocari_bet", ["A", "B", "C"], seed=1)
    before_state, before_records = session.state, list(store.records(session.id))
    for bad, error in [(Move("invest", 0, {"amount": 100}), IllegalMove),
                       (Move("drop", CHANCE, {"out": ["red-short_can"]}), IllegalMove),
                       (Move("secret_card", CHANCE, {"card": "red"}), IllegalMove)]:
        try:
            session.submit(bad, None)
        except error:
            pass
        else:
            raise AssertionError(f"{bad} was accepted")
    assert session.state == before_state and store.records(session.id) == before_records


def test_a_failed_write_changes_nothing(store):
    session = TableSession.create(store, "pocari_bet", ["A", "B", "C"], seed=1)
    before = session.state
    move = session.allowed_moves(None)[0]
    store.close()  # the disk went away
    try:
        session.submit(move, None)
    except Exception:
        pass
    assert session.state == before


def test_undo_with_nothing_a_person_did_is_refused(store):
    session = TableSession.create(store, "pocari_bet", ["A", "B", "C"], bots=[0, 1, 2], seed=2)
    try:
        session.undo()
    except IllegalMove as exc:
        assert "undo" in exc.reason
    else:
        raise AssertionError("undo of computer moves only was accepted")


def test_a_spill_between_throws_is_thrown_again_with_the_next_drop(store):
    session = TableSession.create(store, "pocari_bet", ["A", "B", "C"], seed=3,
                                  options={})
    session.config["sim_tower"] = {"p_out": 0.0}  # everything sticks in this tower
    while session.state.phase != "drop":
        session.submit(session.allowed_moves(None)[0], None)
    session.throw()
    stuck = sorted(session.state.tower.inside)
    assert len(stuck) == 7
    result = session.observe(Observation(source="camera", appeared=stuck[:1]))
    assert result["result"] == "applied" and result["move"]["kind"] == "spill"
    assert session.state.rethrow == frozenset(stuck[:1])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_sessions_fold_back_from_the_store(tmp_path_factory, seed):
    rng = random.Random(seed)
    store = EventStore(tmp_path_factory.mktemp("data"))
    session = TableSession.create(store, "pocari_bet", ["A", "B", "C"], bots=[2], seed=seed)
    tokens = session.config["tokens"]
    for _ in range(120):
        if session.game.is_over(session.state):
            break
        roll = rng.random()
        try:
            if roll < 0.05:
                session.undo()
            elif session.state.phase == "drop":
                session.throw()
            else:
                moves = session.allowed_moves(None)
                viewer = rng.choice([None, moves[0].player])
                session.submit(rng.choice(moves), viewer)
        except IllegalMove:
            pass  # undo with nothing to undo
        # the phones and the table only ever see their own secrets
        for seat in range(3):
            other = session.view(session.seat_for_token(tokens[(seat + 1) % 3]))
            assert other["state"]["players"][seat]["secret"] is None
    again = fold(session.name, session.config, store.records(session.id))
    assert again.state == session.state
    assert TableSession(store, session.id).view(None) == session.view(None)
    try:
        session.seat_for_token("forged")
    except Forbidden:
        pass
    else:
        raise AssertionError("a forged token was accepted")
