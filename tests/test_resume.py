"""A game resumed after a crash plays on: whatever was due without a person happens on resume
(issue 25, defect 2).

A person's move is committed first; the computer players and the simulated table's chance
follow it. A SIGKILL in between leaves exactly the log written here with ``EventStore.append``
(what ``TableSession._commit`` writes, in the same words): the person's move as the last
record. Resuming that log must do what the uninterrupted session did, the same moves with the
same seeds, so that nobody waits on a computer seat and no phone is asked to choose its own
secret card. The real store and session; the crash itself is in tests/test_crash_campaign.py."""
from __future__ import annotations

import pytest

from companion.rules.engine import CHANCE, Move
from companion.sim.table import SIM_TABLE  # the simulated table, wired in as `companion serve` does
from companion.table.session import TableSession
from companion.table.store import EventStore


def crash_after(store: EventStore, game_id: str, move: Move, seat: int | None) -> None:
    """The log a crash leaves right after ``move`` was committed and before anything followed."""
    store.append(game_id, {"type": "move", "move": move.to_json(),
                              "by": "table" if seat is None else f"seat {seat}"})


def same(view: dict, other: dict) -> bool:
    """Two views of games with the same log (their ids aside)."""
    return {**view, "game_id": None} == {**other, "game_id": None}


def first_move(session: TableSession, seat: int, kind: str) -> Move:
    return next(m for m in session.allowed_moves(seat) if m.kind == kind)


def test_a_crash_before_the_computer_seats_moved_does_not_leave_the_game_waiting_on_them(tmp_path):
    """A real table: seat 0 enters its secret card on its phone; then seat 1, a computer, draws."""
    kwargs = dict(game="pocari_bet", names=["Aki", "Bot 1", "Bot 2"], bots=[1, 2], simulated=False, seed=11)
    with EventStore(tmp_path / "whole") as whole, EventStore(tmp_path / "crashed") as crashed:
        played = TableSession.create(whole, **kwargs, automation=SIM_TABLE)
        session = TableSession.create(crashed, **kwargs, automation=SIM_TABLE)
        assert played.records == session.records
        for s in (played, session):  # the table enters the start player (a chance outcome)
            s.submit(next(m for m in s.game.legal_moves(s.state, CHANCE) if m.args["seat"] == 0), None)
            s.submit(first_move(s, 0, "draw"), 0)
        card = session._chance_for(0)["outcomes"][0]["move"]
        played.submit(Move.from_json(card), 0)
        crash_after(crashed, session.id, Move.from_json(card), 0)

        resumed = TableSession(crashed, session.id, automation=SIM_TABLE)
        waiting = [p.actor for p in resumed.game.pending(resumed.state)]
        assert not set(waiting) & {1, 2}, f"the resumed game waits on computer seats {waiting}"
        assert crashed.records(session.id) == whole.records(played.id), \
            "the resumed game did not play what the uninterrupted one played, with the same seeds"
        assert same(resumed.view(None), TableSession(whole, played.id, automation=SIM_TABLE).view(None))


def test_a_crash_before_the_simulated_table_drew_a_secret_card_does_not_offer_the_deck(tmp_path):
    """The simulated table: seat 0 draws from a deck, the simulated table deals the card secretly."""
    kwargs = dict(game="pocari_bet", names=["Aki", "Ben", "Chie"], simulated=True, seed=4)
    with EventStore(tmp_path / "whole") as whole, EventStore(tmp_path / "crashed") as crashed:
        played = TableSession.create(whole, **kwargs, automation=SIM_TABLE)
        session = TableSession.create(crashed, **kwargs, automation=SIM_TABLE)
        seat = played.game.pending(played.state)[0].actor
        draw = first_move(session, seat, "draw")
        played.submit(draw, seat)
        crash_after(crashed, session.id, draw, seat)

        resumed = TableSession(crashed, session.id, automation=SIM_TABLE)
        assert resumed.view(seat)["chance"] is None, \
            "the phone is offered the deck to choose its own secret card on the simulated table"
        assert resumed.state.seats[seat].secret is not None
        assert crashed.records(session.id) == whole.records(played.id)


@pytest.mark.parametrize("game,names", [("tokyo_metro", ["Aki", "Bot"]), ("jasmine_tea", ["Aki", "Bot"])])
def test_every_crash_point_of_a_game_with_a_computer_seat_resumes_to_the_same_game(tmp_path, game, names):
    """Each of a person's moves in turn is the last record a crash leaves; each resume plays on
    exactly as the uninterrupted game did (computer moves, chance), and never waits on the bot."""
    kwargs = dict(game=game, names=names, bots=[1], simulated=True, seed=7)
    with EventStore(tmp_path / "whole") as whole:
        played = TableSession.create(whole, **kwargs, automation=SIM_TABLE)
        crashes = 0
        for step in range(60):
            if played.game.is_over(played.state):
                break
            move, seat = next_move(played, step)
            if move is None:
                played.throw()  # the people throw the drinks into the simulated tower
                continue
            before = list(played.records)
            played.submit(move, seat)
            if len(played.records) == len(before) + 1:
                continue  # nothing automatic followed this move: no crash point to test
            with EventStore(tmp_path / f"crash{step}") as crashed:
                gid = crashed.create_game(game, played.config)
                for record in before:
                    crashed.append(gid, record)
                crash_after(crashed, gid, move, seat)
                resumed = TableSession(crashed, gid, automation=SIM_TABLE)
                assert crashed.records(gid) == whole.records(played.id), f"step {step}: {move} resumed differently"
                assert same(resumed.view(0), played.view(0)) and same(resumed.view(None), played.view(None))
            crashes += 1
        assert crashes >= 3, "too few moves were followed by automatic ones to test"


def next_move(session: TableSession, step: int) -> tuple[Move | None, int | None]:
    """A move of the person at seat 0 (its phone), or one the table makes (a computer's train
    phase held for a tap); (None, None) when the drinks are to be thrown."""
    for seat in (0, None):
        moves = session.allowed_moves(seat)
        chance = session._chance_for(seat)
        if chance and chance["kind"] == "choice":
            moves += [Move.from_json(o["move"]) for o in chance["outcomes"]]
        if moves:
            return moves[step % len(moves)], seat
    assert session._chance_for(None), f"nobody can move: the game waits on {session.game.pending(session.state)}"
    return None, None
