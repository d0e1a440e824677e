"""The table's own METRO board, cards and track (table/table_cards.py, server/routes/table_cards.py)
on the real app over a real SQLite store: a set checked, saved, listed and deleted; bad files
answered with their file, place and reason and nothing saved; board corrections applied; and a
game started with a set plays it (its share cards, track and action cards, not ours)."""
from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.metro.board import DATA, default_board_data, load_board, read_json
from companion.rules.metro.cards import load_deck, load_stock, load_track
from companion.rules.metro.corrections import FORMAT, apply_corrections
from companion.rules.metro.files import DataError
from companion.rules.metro.options import Options, rules_of
from companion.table.table_cards import FILES, Refused, check_set
from tests.api_support import NOBODY, start_game, table_client, view_of

FOUR = ["Aki", "Ben", "Chie", "Dai"]


def corrections(**changes) -> dict:
    return {"format": FORMAT, "version": 1, **changes}


def stock_without(line: str, number: int) -> dict:
    stock = read_json(DATA / "stock_cards.json")
    stock["cards"] = [c for c in stock["cards"] if (c["line"], c["number"]) != (line, number)]
    return stock


def track_paying(high: int, low: int) -> dict:
    """Our track with other numbers beside the value 0 (where every line starts)."""
    track = read_json(DATA / "revenue_track.json")
    track["rows"][0] = [0, high, low]
    return track


def deck_renamed(prefix: str) -> dict:
    """Our action cards with other set and card ids (the cards dealt show them)."""
    deck = read_json(DATA / "action_cards.json")
    for s in deck["sets"]:
        s["id"] = prefix + s["id"]
        for card in s["cards"]:
            card["id"] = prefix + card["id"]
    return deck


# The table's set: line G has two shares on their board and no Shibuya; their track pays at 0.
OURS = {"name": "Our box", "system": "tokyo",
        "board_corrections": corrections(lines={"G": {"shares": 2}}, remove_stations=["shibuya"],
                                         stations={"ueno": {"name": "Ueno (our board)"}}),
        "stock_cards": stock_without("G", 3), "revenue_track": track_paying(500, 200),
        "action_cards": deck_renamed("X")}


@pytest.fixture
def client(store):
    with table_client(store) as c:
        yield c


def test_a_set_is_checked_saved_listed_got_and_deleted(client):
    r = client.post("/api/table-cards/check", json=OURS)
    assert r.status_code == 200, r.text
    preview = r.json()
    ginza = preview["geometry"]["lines"][0]
    assert ginza["letter"] == "G" and ginza["shares"] == 2
    assert "shibuya" not in {s["id"] for s in preview["geometry"]["stations"]}
    assert "Ueno (our board)" in {s["name"] for s in preview["geometry"]["stations"]}
    summary = preview["summary"]
    assert summary["board"]["from"] == "corrections" and summary["stock_cards"]["lines"][0]["surcharges"] == [0, 300]
    assert summary["revenue_track"]["rows"][0] == [0, 500, 200] and summary["action_cards"]["sets"][0]["id"] == "XGM"
    assert summary["players"] == [1, 2, 3, 4, 5]
    assert client.get("/api/table-cards/sets").json()["sets"] == []   # a check saves nothing

    r = client.post("/api/table-cards/sets", json=OURS)
    assert r.status_code == 201, r.text
    set_id = r.json()["id"]
    assert r.json()["new"] is True and r.json()["saved"].startswith("20")
    listed = client.get("/api/table-cards/sets").json()["sets"]
    assert [(s["id"], s["name"], s["system"]) for s in listed] == [(set_id, "Our box", "tokyo")]
    assert listed[0]["files"] == ["board_corrections", "action_cards", "stock_cards", "revenue_track"]
    got = client.get(f"/api/table-cards/sets/{set_id}").json()
    assert got["content"]["stock_cards"] == OURS["stock_cards"]
    again = client.post("/api/table-cards/sets", json={**OURS, "revenue_track": track_paying(400, 100)})
    assert again.json()["id"] == set_id and again.json()["new"] is False   # the same name: replaced
    assert client.get(f"/api/table-cards/sets/{set_id}").json()["content"]["revenue_track"]["rows"][0] == [0, 400, 100]

    assert client.delete(f"/api/table-cards/sets/{set_id}").status_code == 200
    assert client.get("/api/table-cards/sets").json()["sets"] == []
    assert client.delete(f"/api/table-cards/sets/{set_id}").status_code == 404
    assert client.get(f"/api/table-cards/sets/{set_id}").status_code == 404


def test_bad_files_answer_their_file_place_and_reason_and_nothing_is_saved(client):
    bad = {**OURS, "board_corrections": corrections(lines={"Q": {"shares": 2}}),
           "stock_cards": stock_without("M", 2), "revenue_track": {**track_paying(500, 200), "step": "100"}}
    for path in ("/api/table-cards/check", "/api/table-cards/sets"):
        r = client.post(path, json=bad)
        assert r.status_code == 422, r.text
        faults = {f["file"]: f for f in r.json()["faults"]}
        assert faults["board_corrections"]["where"] == "/lines/Q" and "no line 'Q'" in faults["board_corrections"]["reason"]
        assert faults["revenue_track"]["where"] == "/step" and "expected integer" in faults["revenue_track"]["reason"]
        assert "board_corrections /lines/Q" in r.json()["detail"]
    # The board right, the share cards are checked against it.
    r = client.post("/api/table-cards/check", json={**bad, "board_corrections": OURS["board_corrections"],
                                                    "revenue_track": None})
    fault = r.json()["faults"][0]
    assert (fault["file"], fault["where"]) == ("stock_cards", "/cards") and "line G has 2 shares" in fault["reason"]
    # Our default share cards do not fit a board with fewer shares: said so, with what to do.
    r = client.post("/api/table-cards/check", json={"system": "tokyo", "board_corrections": OURS["board_corrections"]})
    assert r.status_code == 422 and "enter the table's own" in r.json()["faults"][0]["reason"]
    # A fault the corrected board shows is placed at the correction that made it.
    r = client.post("/api/table-cards/check", json={"board_corrections": corrections(
        lines={"G": {"stops": ["ueno", "no-such-circle"]}})})
    fault = r.json()["faults"][0]
    assert fault["where"] == "/lines/G/stops/1" and "no-such-circle" in fault["reason"]
    r = client.post("/api/table-cards/check", json={"board": default_board_data(), "board_corrections": corrections()})
    assert r.status_code == 422 and "not both" in r.json()["faults"][0]["reason"]
    r = client.post("/api/table-cards/sets", json={**OURS, "name": "  "})
    assert r.status_code == 422 and "name" in r.json()["detail"]
    r = client.post("/api/table-cards/check", json={**OURS, "board": "not a file"})
    assert r.status_code == 422
    r = client.post("/api/table-cards/check", json=bad, headers={"Accept-Language": "de"})
    assert r.status_code == 422 and r.json()["detail"].startswith("die eigenen Karten")
    assert client.get("/api/table-cards/sets").json()["sets"] == []


def test_only_the_host_sees_and_changes_the_sets(client):
    assert client.get("/api/table-cards/sets", headers=NOBODY).status_code == 403
    assert client.post("/api/table-cards/check", json=OURS, headers=NOBODY).status_code == 403
    assert client.post("/api/table-cards/sets", json=OURS, headers=NOBODY).status_code == 403


def test_a_game_started_with_a_set_plays_its_board_cards_and_track(client):
    set_id = client.post("/api/table-cards/sets", json=OURS).json()["id"]
    ours, _ = start_game(client, game="tokyo_metro", names=FOUR, seed=3)
    theirs, _ = start_game(client, game="tokyo_metro", names=FOUR, seed=3, table_cards=set_id)
    before, after = view_of(client, ours)["state"], view_of(client, theirs)["state"]
    assert before["cards_from"] == {"set": None, "own": []}
    assert after["cards_from"] == {"set": "Our box", "own": ["board", "action_cards", "stock_cards", "revenue_track"]}
    # Their share cards: line G has two; their track pays 500 and 200 where ours pays nothing.
    assert [len(ln["shares"]) for ln in before["lines"][:2]] == [3, 3]
    assert [len(ln["shares"]) for ln in after["lines"][:2]] == [2, 3]
    assert (before["lines"][0]["high"], before["lines"][0]["low"]) == (0, 0)
    assert (after["lines"][0]["high"], after["lines"][0]["low"]) == (500, 200)
    # Their action cards are the ones dealt.
    assert {c["set"] for c in before["columns"]} == {"GM", "HT", "CY", "ZN", "AI", "SE"}
    assert all(c["set"].startswith("X") for c in after["columns"])
    assert after["board"]["name"] == "Tokyo Metro (approximate) (corrected)"
    # The game keeps its copy: deleting the set changes nothing in it.
    client.delete(f"/api/table-cards/sets/{set_id}")
    assert view_of(client, theirs)["state"]["lines"][0]["high"] == 500


def test_a_set_is_refused_for_a_game_it_does_not_fit(client):
    tokyo = client.post("/api/table-cards/sets", json=OURS).json()["id"]
    osaka = client.post("/api/table-cards/sets", json={"name": "Osaka box", "system": "osaka",
                                                  "revenue_track": track_paying(500, 200)}).json()["id"]
    cases = [({"game": "pocari_bet", "table_cards": tokyo}, 422, "leave table_cards out"),
             ({"game": "tokyo_metro", "table_cards": osaka}, 422, "for the osaka system"),
             ({"game": "tokyo_metro", "table_cards": tokyo, "options": {"revenue_track": track_paying(1, 1)}}, 422,
              "not both"),
             ({"game": "tokyo_metro", "table_cards": "feedbeef"}, 422, "no saved set")]
    for body, status, said in cases:
        r = client.post("/api/games", json={"names": FOUR, **body})
        assert r.status_code == status and said in r.json()["detail"], (body, r.text)
    assert client.get("/api/games").json() == []


def test_the_store_keeps_a_bounded_number_of_sets(store):
    assert store.keep_table_cards("a", "tokyo", {}, most=1)[1] is True
    assert store.keep_table_cards("a", "tokyo", {"x": 1}, most=1)[1] is False   # replaced, not added
    with pytest.raises(OverflowError):
        store.keep_table_cards("b", "tokyo", {}, most=1)
    assert [name for _i, name, *_ in store.table_card_sets()] == ["a"]


def test_corrections_add_and_move_stations_and_keep_the_default_untouched():
    base = default_board_data()
    kept = copy.deepcopy(base)
    fixed = apply_corrections(base, corrections(
        add_stations=[{"id": "our-stop", "name": "Our stop", "circles": [{"id": "our-stop", "x": 0.5, "y": 0.5,
                                                                           "fields": [[0, 0]]}]}],
        circles={"ueno": {"x": 3.0}}, lines={"G": {"stops": ["our-stop", *base["lines"][0]["stops"]]}}))
    assert base == kept
    assert fixed["lines"][0]["stops"][0] == "our-stop" and "layout" not in fixed
    ueno = next(s for s in fixed["stations"] if s["id"] == "ueno")
    assert ueno["circles"][0]["x"] == 3.0
    with pytest.raises(DataError, match="/circles/nowhere"):
        apply_corrections(base, corrections(circles={"nowhere": {"x": 1.0}}))
    with pytest.raises(DataError, match="unknown field 'colour'"):
        apply_corrections(base, corrections(stations={"ueno": {"colour": "#000000"}}))



def test_the_examples_in_the_files_document_validate_together():
    """docs/metro-files.md's examples: the small board with its action cards, share cards and
    track loads together; the corrections example applies to our Tokyo board."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "metro-files.md").read_text(encoding="utf-8")
    examples = {d["format"].removeprefix("tokyo-table-companion/metro-"): d
                for d in map(json.loads, re.findall(r"```json\n(.*?)```", text, re.S))}
    assert set(examples) == {"board", "board-corrections", "action-cards", "stock-cards", "revenue-track"}
    board = load_board(examples["board"], "board example")
    assert load_stock(examples["stock-cards"], board).surcharges == ((0, 300),)
    assert len(load_deck(examples["action-cards"], board).cards) == 2
    assert load_track(examples["revenue-track"]).numbers(200) == (100, 100)
    fixed = load_board(apply_corrections(default_board_data(), examples["board-corrections"]), "corrections example")
    assert fixed.lines[0].shares == 2 and "tawaramachi" not in fixed.station_index
    assert next(s for s in fixed.stations if s.id == "ueno").name == "Ueno (Zoo)"


# --- any corrections: a board the engine plays, or faults with their place ------------------------

_BASE = default_board_data()
_STATIONS = [s["id"] for s in _BASE["stations"]]
_CIRCLES = [c["id"] for s in _BASE["stations"] for c in s["circles"]]
_LETTERS = [ln["letter"] for ln in _BASE["lines"]]


@st.composite
def any_corrections(draw) -> dict:
    """Corrections a person might write, right or wrong: stations removed, lines given other
    shares, disc spaces or stops (now and then a circle that is not there), circles moved."""
    lines = {}
    for letter in draw(st.lists(st.sampled_from(_LETTERS), max_size=3, unique=True)):
        change = draw(st.fixed_dictionaries({}, optional={
            "shares": st.integers(1, 4), "disc_spaces": st.integers(0, 10),
            "stops": st.lists(st.sampled_from([*_CIRCLES[:40], "nowhere"]), min_size=2, max_size=6)}))
        lines[letter] = change
    circles = {cid: {"x": draw(st.floats(0, 30, allow_nan=False))}
               for cid in draw(st.lists(st.sampled_from(_CIRCLES), max_size=2, unique=True))}
    return corrections(lines=lines, circles=circles,
                       remove_stations=draw(st.lists(st.sampled_from(_STATIONS), max_size=4, unique=True)))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fix=any_corrections())
def test_any_corrections_give_a_board_the_engine_plays_or_faults_with_their_place(fix):
    try:
        checked = check_set("tokyo", {"board_corrections": fix})
    except Refused as exc:
        assert exc.faults and all(f["file"] in FILES and f["where"].startswith("/") and f["reason"]
                                  for f in exc.faults)
        return
    for letter, change in fix["lines"].items():
        line = checked.board.lines[checked.board.line_index[letter]]
        assert line.shares == change.get("shares", line.shares)
    assert not set(fix["remove_stations"]) & set(checked.board.station_index)
    players = checked.summary["players"][-1]
    rules = rules_of(Options(players=players, **checked.options))   # the engine takes it as it is
    assert rules.board.name == checked.board.name
