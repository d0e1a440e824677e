"""TOKYO METRO driven by the real table session and log fold (the module is registered only inside
these tests; the lead registers it in companion.rules.games)."""
import json

import pytest

from companion.rules import games
from companion.rules.engine import Move
from companion.rules.metro import game as metro
from companion.table.log import read_jsonl
from companion.table.session import Forbidden, TableSession


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setitem(games.GAMES, metro.NAME, metro)


def test_a_table_of_computer_players_plays_to_the_final_scoring_and_the_log_replays(store, registered):
    session = TableSession.create(store, metro.NAME, ["Aki", "Ben", "Chie", "Dai"], bots=[0, 1, 2, 3], seed=7)
    assert metro.is_over(session.state)
    view = session.view(None)
    json.dumps(view)
    assert view["over"] and view["state"]["result"]["ranking"]
    assert view["payouts"]["final"] is True
    folded = read_jsonl(session.log_jsonl().splitlines())
    assert folded.state == session.state


def test_a_human_seat_bids_in_secret_from_their_phone(store, registered):
    session = TableSession.create(store, metro.NAME, ["Aki", "Ben", "Chie"], bots=[1, 2], seed=3)
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
    assert state.phase in ("movement", "tie_break") or state.order[0] == 0
    events = session.view(None)["events"]
    assert all("amount" not in e for e in events if e["kind"] == "bid")


def test_the_table_view_carries_the_map_and_the_train_preview_is_json(store, registered):
    session = TableSession.create(store, metro.NAME, ["Aki", "Ben"], bots=[0, 1], seed=11)
    view = session.view(None)["state"]
    assert view["board"]["approximate"] is True and len(view["board"]["lines"]) == 12
    assert {"letter", "value", "high", "low", "train", "shares", "speculations", "tempo"} <= set(view["lines"][0])
    json.dumps(metro.train_phase_preview(session.state))
