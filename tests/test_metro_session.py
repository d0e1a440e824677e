"""TOKYO METRO driven by the real table session and log fold (the module is registered only inside
these tests; the lead registers it in companion.rules.games)."""
import json
from dataclasses import replace

import pytest

from companion.rules import games
from companion.rules.engine import Move
from companion.rules.metro import game as metro
from companion.sim.table import SIM_TABLE  # the simulated table, wired in as `companion serve` does
from companion.table.log import read_jsonl
from companion.table.session import ESTIMATE_BUDGET, Forbidden, NotOffered, TableSession


@pytest.fixture
def registered():
    assert games.GAMES[metro.NAME].name == metro.NAME


def test_a_table_of_computer_players_plays_to_the_final_scoring_and_the_log_replays(store, registered):
    session = TableSession.create(store, metro.NAME, ["Aki", "Ben", "Chie", "Dai"], bots=[0, 1, 2, 3], seed=7,
                                  automation=SIM_TABLE)
    assert metro.is_over(session.state)
    view = session.view(None)
    json.dumps(view)
    assert view["over"] and view["state"]["result"]["ranking"]
    assert view["payouts"]["final"] is True
    folded = read_jsonl(session.log_jsonl().splitlines())
    assert folded.state == session.state


def test_a_human_seat_bids_in_secret_from_their_phone(store, registered):
    session = TableSession.create(store, metro.NAME, ["Aki", "Ben", "Chie"], bots=[1, 2], seed=3, automation=SIM_TABLE)
    state = session.state
    assert state.phase == "bid"                               # the simulated table dealt the cards, bots bid
    mine = session.view(0)
    assert {m["move"]["kind"] for m in mine["moves"]} == {"bid"}
    assert all(m["cost"] == m["move"]["args"]["amount"] for m in mine["moves"])
    other = session.view(None)["state"]["players"]
    assert [p["has_bid"] for p in other] == [False, True, True]
    assert all(p["bid"] is None for p in other)
    with pytest.raises(Forbidden):
        session.submit(Move("bid", 1, {"amount": 0}), viewer=0)
    session.submit(Move("bid", 0, {"amount": 300}), viewer=0)
    state = session.state
    # the last bid is in: the bids open and are paid (a tie is broken by the simulated table)
    assert state.phase == "movement" and state.last_bids[0] == (300, 0)
    assert state.seats[0].yen == 2000 - 300
    events = session.view(None)["events"]
    assert all("amount" not in e for e in events if e["kind"] == "bid")


def test_the_table_view_carries_the_map_and_the_train_preview_is_json(store, registered):
    session = TableSession.create(store, metro.NAME, ["Aki", "Ben"], bots=[0, 1], seed=11, automation=SIM_TABLE)
    view = session.view(None)["state"]
    assert view["board"]["approximate"] is True and len(view["board"]["lines"]) == 12
    assert {"letter", "value", "high", "low", "train", "shares", "speculations", "tempo"} <= set(view["lines"][0])
    json.dumps(metro.train_phase_preview(session.state))


def _to_trains(session):
    """Drive the session (the human seats by the first legal move, bids 0 from the phones) until the
    train phase waits for its start."""
    for _ in range(2000):
        state = session.state
        if state.phase == "trains" and state.run is None:
            return state
        pending = metro.pending(state)
        human = [p.actor for p in pending if p.actor != "chance" and p.actor not in session.bots]
        assert human, f"the game waits for nobody a person could tap for: {pending}"
        seat = human[0]
        moves = metro.legal_moves(state, seat)
        bid = [m for m in moves if m.kind == "bid"]
        passes = [m for m in moves if m.kind == "pass"]
        session.submit(bid[0] if bid else passes[0] if passes else moves[0], viewer=seat)
    pytest.fail("no train phase reached")


def test_a_computer_players_train_phase_waits_for_a_tap_on_the_table(store):
    # Seat 0 a person, seats 1 and 2 computers; the seed makes a computer first in order.
    for seed in range(1, 40):
        session = TableSession.create(store, metro.NAME, ["Aki", "Ben", "Chie"], bots=[1, 2], seed=seed,
                                      automation=SIM_TABLE)
        state = _to_trains(session)
        if state.order[0] != 0:
            break
    else:
        pytest.fail("no game with a computer first in order")
    first = state.order[0]
    seq = len(session.records)
    session.advance()
    assert len(session.records) == seq and session.state.run is None, "the computer ran the trains by itself"
    table = session.view(None)
    assert [m["move"] for m in table["moves"]] == [{"kind": "run_trains", "player": first, "args": {}}]
    assert table["state"]["preview"]["trains"] is not None
    assert session.view(0)["moves"] == []
    assert session.estimates(None, 10)["seats"] == []   # no estimates of a computer's held move
    with pytest.raises(Forbidden, match="computer"):
        session.submit(Move("run_trains", first, {}), viewer=0)   # not from a phone
    with pytest.raises(Forbidden, match="computer"):
        session.submit(Move("pass", first, {}), viewer=None)      # nothing but the held move
    before = [s.yen for s in session.state.seats]
    income = metro.train_phase_preview(session.state)["owner_income"]
    session.submit(Move("run_trains", first, {}), viewer=None)
    records = session.records
    assert records[seq]["by"] == "table" and records[seq]["move"]["kind"] == "run_trains"
    view = session.view(None)["state"]
    last = view["last_run"]
    assert last["round"] == state.round and last["done"] is True
    assert last["owner_income"] == income
    assert sum(p["to_owner"] for p in last["payouts"]) == sum(income)
    if session.state.phase not in ("trains", "over"):  # the run is over (nobody had to decide)
        assert [s.yen for s in session.state.seats] == [before[p] + income[p] - last["fares_paid"][p] for p in range(3)]


def test_a_table_of_computers_runs_its_trains_at_once(store):
    session = TableSession.create(store, metro.NAME, ["Aki", "Ben"], bots=[0, 1], seed=5, automation=SIM_TABLE)
    assert metro.is_over(session.state)
    assert not any(r.get("by") == "table" for r in session.records)
    assert session.view(None)["state"]["last_run"]["round"] == session.state.rules.rounds


def test_estimates_for_the_moves_each_viewer_is_offered(store):
    session = TableSession.create(store, metro.NAME, ["Aki", "Ben", "Chie"], bots=[1, 2], seed=3, automation=SIM_TABLE)
    assert session.state.phase == "bid"
    table = session.estimates(None, 30)
    assert table["seats"] == []                  # the table is offered no bid (it is secret)
    mine = session.estimates(0, 30)
    assert [s["seat"] for s in mine["seats"]] == [0]
    moves = [m["move"] for m in session.view(0)["moves"]]
    assert [m["move"] for m in mine["seats"][0]["moves"]] == moves
    assert mine["method"] == "random playouts" and mine["playouts"] == 30 and not mine["capped"]
    assert session.estimates(0, 30) is mine      # kept for this log length
    # The cap: a whole game's playouts are limited by the budget.
    big = session.estimates(0, 2000)
    assert big["capped"] and big["requested"] == 2000
    assert big["playouts"] == ESTIMATE_BUDGET // metro.GAME.estimate_cost(session.state) == 5000 // (3 * 7)
    session.submit(Move("bid", 0, {"amount": 0}), viewer=0)
    again = session.estimates(0, 30)
    assert again["seq"] > mine["seq"]


def test_a_game_without_estimates_says_so(store, monkeypatch):
    # POCARI BET as a game that could not draw its hidden cards again (every game offers them now)
    monkeypatch.setitem(games.GAMES, "pocari_bet", replace(games.GAMES["pocari_bet"], redraw=None))
    session = TableSession.create(store, "pocari_bet", ["Aki", "Ben", "Chie"], seed=3, automation=SIM_TABLE)
    with pytest.raises(NotOffered, match="offers no estimates"):
        session.estimates(None)


def test_a_phone_offers_getting_off_a_train_also_when_it_is_not_its_turn(store):
    """000 TOKYO METRO, Zugphase: getting off is allowed at any time, also in another player's turn,
    so a rider's phone offers it while the game waits for someone else (here Ben's bid); the table
    view does not (it acts for the seats the game waits for)."""
    session = TableSession.create(store, metro.NAME, ["Aki", "Ben"], seed=3, automation=SIM_TABLE)
    session.submit(Move("bid", 0, {"amount": 0}), viewer=0)
    state = session.state
    assert state.phase == "bid" and metro.pending(state)[0].actor == 1
    # Aki's meeple rides G, which has moved since she boarded (a position later rounds reach by play).
    g = state.board.line_index["G"]
    lines = state.lines[:g] + (state.lines[g]._replace(train=3, holders=(1,), value=500),) + state.lines[g + 1:]
    seats = (state.seats[0]._replace(field=-1, riding=g, moved=True),) + state.seats[1:]
    session.folded.state = state._replace(lines=lines, seats=seats)
    offered = [m["move"] for m in session.view(0)["moves"]]
    assert offered and {m["kind"] for m in offered} == {"alight"} and {m["player"] for m in offered} == {0}
    assert not [m for m in session.view(None)["moves"] if m["move"]["kind"] == "alight"]
    session.submit(Move.from_json(offered[0]), viewer=0)
    assert session.state.seats[0].riding == -1 and session.state.phase == "bid"
