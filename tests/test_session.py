"""The table session over a real store: every change is committed before it is adopted,
a refused change stores nothing, and the store folds back to the same game."""
from __future__ import annotations

import json
import random
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.observation import Observation
from companion.rules.engine import CHANCE, ChanceDrop, IllegalMove, Move
from companion.rules.games import GAMES
from companion.sim.table import SIM_TABLE  # the simulated table, wired in as `companion serve` does
from companion.table.log import fold
from companion.table.access import Access
from companion.table.session import TableSession
from companion.table.store import EventStore


def test_a_refused_move_stores_nothing_and_changes_nothing(store):
    session = TableSession.create(store, "pocari_bet", ["A", "B", "C"], seed=1, automation=SIM_TABLE)
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
    session = TableSession.create(store, "pocari_bet", ["A", "B", "C"], seed=1, automation=SIM_TABLE)
    before, records, history = session.state, list(session.records), list(session.folded.history)
    move = session.allowed_moves(None)[0]
    store.close()  # the disk went away
    # the write error reaches the caller (nothing is swallowed), and nothing was adopted
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        session.submit(move, None)
    assert session.state == before
    assert session.records == records and session.folded.history == history
    with EventStore(store.path.parent) as again:  # and nothing reached the disk
        assert again.records(session.id) == records


def test_undo_with_nothing_a_person_did_is_refused(store):
    session = TableSession.create(store, "pocari_bet", ["A", "B", "C"], bots=[0, 1, 2], seed=2, automation=SIM_TABLE)
    try:
        session.undo()
    except IllegalMove as exc:
        assert "undo" in exc.reason
    else:
        raise AssertionError("undo of computer moves only was accepted")


def test_a_spill_between_throws_is_thrown_again_with_the_next_drop(store):
    session = TableSession.create(store, "pocari_bet", ["A", "B", "C"], seed=3,
                                  options={}, automation=SIM_TABLE)
    session.config["sim_tower"] = {"p_out": 0.0}  # everything sticks in this tower
    while session.state.phase != "drop":
        session.submit(session.allowed_moves(None)[0], None)
    session.throw()
    stuck = sorted(session.state.tower.inside)
    assert len(stuck) == 7
    result = session.observe(Observation(source="camera", appeared=stuck[:1]))
    assert result["result"] == "applied" and result["move"]["kind"] == "spill"
    assert session.state.rethrow == frozenset(stuck[:1])


# --- random sessions over the real store, for every registered game ------------------------------

def _seats(game) -> int:
    """A small table for the game: three seats where it allows them, else the nearest count."""
    return min(game.players, key=lambda n: (abs(n - 3), n))


def _choices(session, humans):
    """Every move a person could make now, with where it is made: (move, None) from the table
    view, (move, seat) from that seat's phone."""
    found = [(m, None) for m in session.allowed_moves(None)]
    for seat in humans:
        found += [(m, seat) for m in session.allowed_moves(seat) if (m, None) not in found]
    return found


def _check_secrets(session, seats):
    """No view (the table's, or a phone's) shows another seat's secret card or sealed bid."""
    for viewer in [None, *range(seats)]:
        players = session.view(viewer)["state"].get("players", [])
        for seat, shown in enumerate(players):
            if seat != viewer:
                assert shown.get("secret") is None and shown.get("bid") is None, \
                    f"seat {seat}'s secret shows in the view of {viewer}"


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_sessions_fold_back_from_the_store(tmp_path_factory, name, seed):
    """Random play of a table session: people (the table view and the phones) make random
    listed moves, throw into the simulated tower when a drop is due, and now and then undo.
    Every listed move is accepted; an undo is refused exactly when no person has moved since
    the start (or since the undos took all their moves back), and otherwise brings back the
    state before the latest person's move. The store folds back to the same game."""
    game = GAMES[name]
    rng = random.Random(seed)
    store = EventStore(tmp_path_factory.mktemp("data"))
    n = _seats(game)
    bots = [n - 1] if n > 1 else []
    humans = [p for p in range(n) if p not in bots]
    session = TableSession.create(store, name, [f"P{p + 1}" for p in range(n)], bots=bots, seed=seed,
                                  automation=SIM_TABLE)
    with pytest.raises(IllegalMove, match="undo"):  # nobody has moved yet
        session.undo()
    before_personal = []  # the state before each person's move that an undo can still take back
    for _ in range(40):
        if game.is_over(session.state):
            break
        if rng.random() < 0.1:
            if before_personal:
                session.undo()
                assert session.state == before_personal.pop(), "undo did not bring back the state"
            else:
                with pytest.raises(IllegalMove, match="undo"):
                    session.undo()
            continue
        if isinstance(game.chance(session.state), ChanceDrop):
            result = session.throw()  # the simulated table's move: an undo takes it back with the one before
            assert result["result"] == "applied", result
            continue
        choices = _choices(session, humans)
        assert choices, f"{name}: nobody can move in {session.state.phase} and no drop is due"
        move, viewer = rng.choice(choices)
        state = session.state
        session.submit(move, viewer)  # a listed move is never refused
        before_personal.append(state)
        _check_secrets(session, n)
    again = fold(session.name, session.config, store.records(session.id))
    assert again.state == session.state
    assert TableSession(store, session.id, automation=SIM_TABLE).view(None) == session.view(None)
    assert Access(store).grant("forged", session.id, n) is None
    store.close()


# --- the observation path (issue 27, item 2) ---------------------------------------------------------

def to_the_throw(session: TableSession) -> None:
    while not isinstance(session.game.chance(session.state), ChanceDrop):
        session.submit(session.allowed_moves(None)[0], None)


def test_a_reading_taken_is_one_record_and_one_application_of_the_engine(store, monkeypatch):
    session = TableSession.create(store, "pocari_bet", ["A", "B", "C"], seed=3, automation=SIM_TABLE)
    to_the_throw(session)
    thrown = list(session.game.chance(session.state).thrown)
    applied = []

    class Counting:
        """The game, counting what the engine is asked to apply."""

        def __init__(self, game):
            self.game = game

        def __getattr__(self, name):
            return getattr(self.game, name)

        def apply(self, state, move):
            applied.append(move)
            return self.game.apply(state, move)

    monkeypatch.setattr(session.folded, "game", Counting(session.game))
    before = len(store.records(session.id))
    result = session.observe(Observation(source="person", appeared=thrown[:2]))
    assert result["result"] == "applied"
    drop = Move.from_json(result["move"])
    stored = json.loads(json.dumps(result["move"]))
    record = store.records(session.id)[before]
    assert record["type"] == "observation" and record["move"] == stored and record["by"] == "person"
    assert applied.count(drop) == 1, "the engine applied the drop once"
    assert not any(r["type"] == "move" and r["move"] == stored for r in store.records(session.id)[before:])
    # resumed from the store, it folds to the same; an undo takes the drop back as a person's move
    assert TableSession(store, session.id, automation=SIM_TABLE).view(None) == session.view(None)
    session.undo()
    assert isinstance(session.game.chance(session.state), ChanceDrop)


def test_a_sensor_event_is_recorded_once_whichever_game_is_fed_and_after_a_restart(tmp_path):
    from companion.table.tables import Tables

    data = tmp_path / "data"
    event = Observation(source="sensors", kind="beams", passes_in=1,
                        detail={"boot_id": "00c0ffee", "event_id": 5, "beam": "in"})
    with EventStore(data) as store:
        tables = Tables(store, automation=SIM_TABLE)
        first = tables.create("pocari_bet", ["A", "B", "C"], seed=1)
        assert tables.route(event)["result"] == "counted"
        assert tables.route(event)["result"] == "duplicate"   # re-sent after a lost acknowledgement
        second = tables.create("pocari_bet", ["A", "B", "C"], seed=2)   # now fed by the tower
        assert tables.active == second.id
        assert tables.route(event)["result"] == "duplicate"
        assert second.folded.beams == (0, 0) and first.folded.beams == (1, 0)
    with EventStore(data) as store:   # a restarted companion
        tables = Tables(store, automation=SIM_TABLE)
        assert tables.route(event)["result"] == "duplicate"
        assert tables.route(event.model_copy(update={"detail": {**event.detail, "event_id": 6}}))["result"] == "counted"
        beams = [r for gid in (first.id, second.id) for r in store.records(gid)
                 if r["type"] == "observation" and r["observation"]["kind"] == "beams"]
        assert [r["observation"]["detail"]["event_id"] for r in beams] == [5, 6]


def test_without_automation_nothing_plays_on_its_own(store):
    """The table plays computer seats and the simulated table's chance only with the hands it is
    given (the composition root's): without them they wait."""
    session = TableSession.create(store, "pocari_bet", ["A", "B", "C"], bots=[0, 1, 2], seed=2)
    assert store.records(session.id) == [] and not session.over
    with pytest.raises(Exception, match="no simulated tower"):
        session.sim_drop()
    played = TableSession(store, session.id, automation=SIM_TABLE)   # wired in: it plays what is due
    assert len(store.records(session.id)) > 0 and played.over
