"""The history across nights against a real SQLite store and the real app: each finished game's
summary (kept when it finishes; made when first asked for in a store written before), games ended
early and set aside, the players' records, the tower's statistics from drops with known sticking,
and the API's routes with their bounds and refusals."""
from __future__ import annotations

import re
import sqlite3

import pytest
from api_support import NOBODY, seat, start_game

from companion.rules.engine import CHANCE, ChanceDrop
from companion.sim.table import SIM_TABLE
from companion.table import drops
from companion.table.history import History
from companion.table.log import start
from companion.table.session import TableSession
from companion.table.store import SCHEMA_VERSION, EventStore
from companion.table.summary import SUMMARY_VERSION
from companion.table.tables import Tables

NAMES = ["Aki", "Ben", "Chie"]


def finished_pocari(store: EventStore, seed: int = 3) -> TableSession:
    """A POCARI BET game the computer plays to its end on the simulated table."""
    session = TableSession.create(store, "pocari_bet", NAMES, bots=[0, 1, 2], seed=seed, automation=SIM_TABLE)
    assert session.over and not session.folded.ended
    return session


def finished_melon(store: EventStore) -> TableSession:
    """A short game (MELON SODA: 16 records, 4 drops) the computer plays to its end."""
    session = TableSession.create(store, "melon_soda", ["Aki", "Ben"], bots=[0, 1], seed=3, automation=SIM_TABLE)
    assert session.over
    return session


def test_a_finished_pocari_game_is_summarised_when_it_ends_with_its_winner(store):
    session = finished_pocari(store)
    kept = store.summaries(SUMMARY_VERSION)
    assert session.id in kept, "the summary is kept by the game's last commit, not made later"
    summary = kept[session.id]
    payouts = session.game.payouts(session.state)
    best = max(payouts["yen"])
    assert summary["status"] == "completed" and summary["game"] == "pocari_bet" and summary["simulated"]
    assert summary["winners"] == [s for s, y in enumerate(payouts["yen"]) if y == best] == sorted(payouts["winners"])
    assert [(p["name"], p["bot"], p["yen"], p["score"], p["winner"]) for p in summary["players"]] == [
        (NAMES[s], True, y, y, y == best) for s, y in enumerate(payouts["yen"])]
    assert summary["created"] == store.game(session.id).created and summary["finished"] == store.last_at(session.id)
    assert summary["moves"] == len(session.folded.history)
    assert summary["tower"]["drops"] == drop_moves(session) > 0  # a drop each round


def drop_moves(session: TableSession) -> int:
    return sum(move.kind == "drop" for _state, move, _by in session.folded.history)


def test_a_game_ended_early_is_listed_without_a_winner_and_counts_in_no_record(store):
    done = finished_pocari(store)
    ended = TableSession.create(store, "pocari_bet", ["Aki", "Dai", "Emi"], bots=[1, 2], seed=4, automation=SIM_TABLE)
    ended.end()
    history = History(Tables(store))
    listed = {g["id"]: g for g in history.games()}
    assert listed[ended.id]["status"] == "ended" and listed[ended.id]["winners"] == []
    assert not any(p["winner"] for p in listed[ended.id]["players"])
    assert listed[ended.id]["players"][0]["yen"] == ended.game.payouts(ended.state)["yen"][0]
    records = history.players()
    assert records["games"] == 1
    assert {(p["name"], p["games"]) for p in records["players"]} == {(n, 1) for n in NAMES}  # Dai and Emi: none
    aki = next(p for p in records["players"] if p["name"] == "Aki")
    assert aki["bot"] and aki["yen_total"] == done.game.payouts(done.state)["yen"][0] == aki["yen_average"]
    assert aki["by_game"]["pocari_bet"]["games"] == 1


def test_games_that_cannot_be_replayed_are_listed_as_set_aside(store):
    good = finished_pocari(store)
    bad_move = finished_melon(store).id
    store.append(bad_move, {"type": "bogus"})            # a record no fold can apply, written past the table
    not_json = store.create_game("pocari_bet", {"names": NAMES, "bots": [], "seed": 1, "rules": 2})
    con = sqlite3.connect(store.path)
    con.execute("DELETE FROM summaries WHERE game_id=?", (bad_move,))  # as if it finished before schema 4
    con.execute("INSERT INTO records VALUES (?, 1, 'now', '{\"type\": ')", (not_json,))
    con.commit()
    con.close()
    tables = Tables(store)                                 # the open game is set aside at start
    listed = {g["id"]: g for g in History(tables).games()}
    assert listed[good.id]["status"] == "completed"
    assert listed[bad_move]["status"] == "set_aside" and listed[bad_move]["set_aside"]["seq"] == len(store.raw_records(bad_move))
    assert "bogus" in listed[bad_move]["set_aside"]["reason"] and "set aside" in listed[bad_move]["set_aside"]["message"]
    assert listed[not_json]["status"] == "set_aside" and listed[not_json]["set_aside"]["seq"] == 1
    assert [p["name"] for p in listed[not_json]["players"]] == NAMES
    assert History(tables).players()["games"] == 1         # set aside: counted nowhere
    assert {p["name"] for p in History(tables).players()["players"]} == set(NAMES)


def test_a_store_of_schema_3_gains_the_summaries_and_summarises_its_games_when_first_asked(tmp_path):
    with EventStore(tmp_path) as s:
        session = finished_pocari(s)
        winners = session.game.payouts(session.state)["winners"]
    con = sqlite3.connect(tmp_path / EventStore.FILE_NAME)
    con.execute("DROP TABLE summaries")
    con.execute("PRAGMA user_version=3")
    con.commit()
    con.close()
    with EventStore(tmp_path) as s:
        assert s.summaries(SUMMARY_VERSION) == {}
        listed = History(Tables(s)).games()
        assert [(g["id"], g["status"], g["winners"]) for g in listed] == [(session.id, "completed", sorted(winners))]
        assert s.summaries(SUMMARY_VERSION)[session.id] == listed[0]  # kept: the next page reads it
    con = sqlite3.connect(tmp_path / EventStore.FILE_NAME)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
    con.close()


def test_a_summary_of_an_older_format_is_made_again(store):
    session = finished_melon(store)
    store.keep_summary(session.id, SUMMARY_VERSION - 1, {"made": "by an older companion"})
    assert History(Tables(store)).games()[0]["winners"] == sorted(session.game.payouts(session.state)["winners"])


# --- the tower's books --------------------------------------------------------------------------

def drive(drops_wanted: int, undo_last: bool = False, game: str = "pocari_bet", names=tuple(NAMES)):
    """A game played by hand: the first legal move of whoever is due, and each drop letting out
    everything but the first drink thrown in (which sticks; the next drop frees it). The fold, its
    records, and what each drop threw in."""
    folded = start(game, {"names": list(names), "bots": [], "seed": 1, "rules": 2, "simulated": False})
    records, thrown = [], []
    while len(thrown) < drops_wanted:
        game, state = folded.game, folded.state
        actor = game.pending(state)[0].actor
        spec = game.chance(state) if actor == CHANCE else None
        if isinstance(spec, ChanceDrop):
            thrown.append(spec.thrown)
            move = {"kind": spec.move_kind, "player": "chance", "args": {"out": [*spec.thrown[1:], *spec.inside]}}
        elif actor == CHANCE:
            move = spec.outcomes[0][0].to_json()
        else:
            move = game.legal_moves(state, actor)[0].to_json()
        records.append({"type": "move", "move": move, "by": "table"})
        folded.step(records[-1])
    if undo_last:
        records.append({"type": "undo", "by": "table"})
        folded.step(records[-1])
    return folded, records, thrown


def test_the_tower_books_count_first_tries_sticking_and_freed_drinks_and_not_undone_drops():
    folded, _records, thrown = drive(3, undo_last=True)   # the third drop taken back
    books = drops.rates(drops.tally(folded.game, folded.history))
    first, second = thrown[0], thrown[1]
    assert (books["drops"], books["stuck_drops"], books["spills"]) == (2, 2, 0)
    assert (books["thrown"], books["first"], books["stuck"]) == (len(first) + len(second),
                                                                len(first) + len(second) - 2, 2)
    assert books["drinks"][first[0]] == {"thrown": 1, "first": 0, "stuck": 1, "freed": 1, "spilled": 0,
                                         "first_rate": 0.0, "stuck_rate": 1.0}
    assert books["drinks"][second[0]]["stuck"] == 1 and books["drinks"][second[0]]["freed"] == 0
    assert books["drinks"][first[1]]["first_rate"] == 1.0
    assert books["stuck_drop_rate"] == 1.0


def test_a_drink_that_falls_out_on_its_own_is_spilled_not_freed():
    folded, _records, thrown = drive(1, game="vending_poker", names=("Aki", "Ben"))
    folded.step({"type": "move", "move": {"kind": "spill", "player": "chance", "args": {"out": [thrown[0][0]]}},
                 "by": "table"})
    books = drops.tally(folded.game, folded.history)
    assert (books["drops"], books["spills"]) == (1, 1)
    assert books["drinks"][thrown[0][0]] == {"thrown": 1, "first": 0, "stuck": 1, "freed": 0, "spilled": 1}


def test_the_history_counts_every_drop_of_any_game_the_real_tower_apart(store):
    _folded, records, thrown = drive(2)
    real = store.create_game("pocari_bet", {"names": NAMES, "bots": [], "seed": 1, "rules": 2, "simulated": False})
    for record in records:
        store.append(real, record)
    simulated = finished_melon(store)
    tower = History(Tables(store)).tower()                         # the real game is open: its drops so far
    assert (tower["real"]["games"], tower["real"]["drops"], tower["real"]["stuck"]) == (1, 2, 2)
    assert tower["real"]["thrown"] == sum(map(len, thrown))
    assert tower["simulated"]["drops"] == drop_moves(simulated) and tower["simulated"]["games"] == 1


# --- the API -------------------------------------------------------------------------------------

def test_the_history_routes_page_the_games_and_answer_the_records(client):
    ids = [start_game(client, game="jasmine_tea", names=["Aki", "Ben"], bots=[0, 1], seed=s)[0] for s in (1, 2, 3)]
    page = client.get("/api/history", params={"offset": 1, "limit": 1}).json()
    assert page["total"] == 3 and page["offset"] == 1 and page["limit"] == 1
    assert [g["id"] for g in page["games"]] == [ids[1]] and "tower" not in page["games"][0]
    assert page["games"][0]["drops"] >= 1
    assert client.get("/api/history", params={"offset": 5}).json()["games"] == []
    players = client.get("/api/history/players").json()
    assert players["games"] == 3 and sum(p["wins"] for p in players["players"]) >= 3
    tower = client.get("/api/history/tower").json()
    assert tower["real"]["drops"] == 0 and tower["simulated"]["games"] == 3
    assert set(tower["simulated"]["drinks"]) <= {f"{c}-{s}" for c in ("black", "white", "mint", "blue", "red", "purple")
                                                 for s in ("stubby_can", "short_can", "tall_can", "square_bottle",
                                                           "not_tallest_bottle", "tallest_bottle")}


@pytest.mark.parametrize("query, word", [({"limit": 0}, "limit"), ({"limit": 101}, "limit"),
                                         ({"offset": -1}, "offset"), ({"offset": "x"}, "offset")])
def test_a_page_out_of_bounds_is_a_422_that_names_the_parameter(client, query, word):
    r = client.get("/api/history", params=query)
    assert r.status_code == 422 and word in r.text


def test_the_history_is_the_hosts_alone(client):
    _gid, tokens = start_game(client, game="pocari_bet", names=NAMES, bots=[1, 2], seed=1)
    for path in ("/api/history", "/api/history/players", "/api/history/tower"):
        for headers in (NOBODY, seat(tokens[0])):
            r = client.get(path, headers=headers)
            assert r.status_code == 403, (path, r.text)
    r = client.post("/api/history/replay", json={"log": ""}, headers=seat(tokens[0]))
    assert r.status_code == 403 and "host" in r.json()["detail"]


def test_a_log_replayed_says_what_it_comes_to_or_the_first_bad_line(client):
    gid, _ = start_game(client, game="pocari_bet", names=NAMES, bots=[0, 1, 2], seed=3)
    log = client.get(f"/api/games/{gid}/log.jsonl").text
    listed = client.get("/api/history").json()["games"][0]
    r = client.post("/api/history/replay", json={"log": log})
    assert r.status_code == 200, r.text
    summary = r.json()["summary"]
    assert (summary["id"], summary["status"], summary["winners"]) == (None, "completed", listed["winners"])
    assert [p["score"] for p in summary["players"]] == [p["score"] for p in listed["players"]]
    assert r.json()["payouts"]["final"] is True
    lines = log.splitlines()
    r = client.post("/api/history/replay", json={"log": "\n".join([*lines[:3], '{"type": "move", "move": 7}'])})
    assert r.status_code == 422 and r.json()["detail"].startswith("line 4 of the log: ")
    r = client.post("/api/history/replay", json={"log": "not a log"})
    assert r.status_code == 422 and "line 1" in r.json()["detail"]
    r = client.post("/api/history/replay", json={"log": "x" * 200_001})
    assert r.status_code == 422 and "200000" in r.text
    assert client.get("/api/history").json()["total"] == 1      # nothing stored


def test_the_history_page_is_served(client):
    r = client.get("/history")
    assert r.status_code == 200 and re.search(r'src="/static/v/\w+/js/history\.js"', r.text), r.text
