"""TOKYO METRO data: the default board, cards and track, and refusing files that do not validate
(with the first fault and its place)."""
import copy
import doctest
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.rules.engine import IllegalMove
from companion.rules.metro import board as board_mod, cards as cards_mod, files, game as metro, options, state as state_mod
from companion.rules.metro.board import DataError, default_board, default_board_data, load_board
from companion.rules.metro.cards import (default_deck, default_stock, default_track, load_deck, load_stock,
                                         load_track)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "companion" / "rules" / "metro" / "data"
# The station lists the board is built from: ../shared beside the checkout, or COMPANION_SHARED
# (a folder laid out like shared/) where a developer keeps it elsewhere; the tests' own copy
# otherwise, so that a bare clone checks the build too.
SHARED = Path(os.environ.get("COMPANION_SHARED") or ROOT.parent / "shared") / "data" / "tokyo-subway"
STATION_LISTS = ("lines_eng.csv", "stations_eng.csv", "stations_jap.csv", "transitions.csv")
COPY = ROOT / "tests" / "data" / "tokyo-subway"


def data(name):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


# --- the default board ------------------------------------------------------------------------------

def test_default_board_has_the_twelve_game_lines_in_train_order_without_f():
    board = default_board()
    assert [ln.letter for ln in board.lines] == list("GMHTCYZNAISE")
    assert "F" not in board.line_index
    assert board.approximate and "approximate" in board.name.lower()
    for ln in board.lines:
        assert len(ln.stops) >= 10 and ln.shares == 3 and ln.disc_spaces == 3
        assert ln.colour.startswith("#")


def test_default_board_stations_come_from_the_station_lists():
    board = default_board()
    names = {st.name for st in board.stations}
    for station in ("Shibuya", "Ikebukuro", "Asakusa", "Kita-senju", "Nishi-funabashi", "Hikarigaoka"):
        assert any(station in n for n in names), station
    otemachi = board.stations[board.station_index["otemachi"]]
    assert {board.lines[i].letter for i in otemachi.lines} == set("MTCZI")
    assert len(otemachi.circles) == 3          # a station has at most 3 stop circles
    assert all(1 <= len(st.circles) <= 3 for st in board.stations)
    assert all(st.fields for st in board.stations)


def test_default_board_has_a_line_with_two_stops_in_one_station():
    board = default_board()
    e = board.lines[board.line_index["E"]]
    shinjuku = board.station_index["shinjuku"]
    assert e.stop_station.count(shinjuku) == 2
    # ...on two different circles of that station
    assert len({c for c, s in zip(e.stops, e.stop_station) if s == shinjuku}) == 2


def test_default_board_has_crossings_that_share_a_circle():
    board = default_board()
    counts = {}
    for ln in board.lines:
        for c in ln.stops:
            counts[c] = counts.get(c, 0) + 1
    assert any(v == 2 for v in counts.values())


def test_board_geometry_is_json_for_the_map_view():
    geometry = default_board().geometry()
    json.dumps(geometry)
    assert geometry["approximate"] is True
    assert geometry["grid"]["cols"] > 10 and geometry["start_area"]["cols"] > 1
    g = geometry["lines"][0]
    assert g["letter"] == "G" and g["stops"][0]["label"] == "G1" and g["stops"][0]["circle"]
    assert all(c["fields"] for st in geometry["stations"] for c in st["circles"])


def test_reachable_walks_orthogonally_and_never_through_a_meeple():
    board = default_board()
    start = board.field(5, 5)
    two = set(board.reachable(start, 2, set()))
    assert len(two) == 13  # a diamond of radius 2
    assert board.field(6, 6) in two and board.field(7, 7) not in two
    blocked = {board.field(6, 5), board.field(4, 5), board.field(5, 4), board.field(5, 6)}
    assert board.reachable(start, 3, blocked) == [start]


def station_lists() -> Path:
    if SHARED.exists():
        for name in STATION_LISTS:
            assert (SHARED / name).read_bytes() == (COPY / name).read_bytes(), \
                f"tests/data/tokyo-subway/{name} differs from {SHARED / name}: copy it over"
        return SHARED
    if os.environ.get("COMPANION_SHARED"):
        pytest.fail(f"COMPANION_SHARED is set, but {SHARED} does not exist: point it at the shared folder")
    return COPY


def test_build_board_reproduces_the_committed_board(tmp_path):
    out = tmp_path / "board.json"
    subprocess.run([sys.executable, str(DATA / "build_board.py"), "--source", str(station_lists()),
                    "--out", str(out)], check=True, capture_output=True)
    assert json.loads(out.read_text(encoding="utf-8")) == data("tokyo_board.json")


def test_the_package_does_not_read_the_shared_folder_at_run_time():
    for path in (ROOT / "companion" / "rules" / "metro").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "tokyo-subway" not in text and '"shared"' not in text and "../shared" not in text, path.name


# --- the default cards and track ---------------------------------------------------------------------

def test_default_deck_is_54_cards_in_6_sets_of_9_named_by_line_pairs():
    deck = default_deck(default_board())
    assert [s.colours for s in deck.sets] == [("G", "M"), ("H", "T"), ("C", "Y"), ("Z", "N"), ("A", "I"), ("S", "E")]
    assert len(deck.cards) == 54 and all(len(s.cards) == 9 for s in deck.sets)
    for card in deck.cards.values():
        assert 1 <= card.dots <= 3 and 1 <= len(card.actions) <= 2
        assert all(1 <= a.spaces <= 3 for a in card.actions)
    kinds = {a.kind for c in deck.cards.values() for a in c.actions}
    assert kinds == set(cards_mod.ACTION_KINDS) - cards_mod.OSAKA_KINDS  # every action of TOKYO METRO appears


def test_default_deck_deals_one_dot_cards_first():
    deck = default_deck(default_board())
    groups = deck.groups(0)
    assert [deck.cards[g[0]].dots for g in groups] == [1, 2, 3]


def test_default_stock_cards_are_three_per_line_with_300_and_600_surcharges():
    stock = default_stock(default_board())
    assert stock.surcharges == tuple((0, 300, 600) for _ in range(12))
    assert len(data("stock_cards.json")["cards"]) == 36


def test_revenue_track_fits_the_rule_books_worked_examples():
    track = default_track()
    assert track.numbers(2900) == (2000, 900)     # two holders of a line worth 2,900
    assert track.numbers(1400) == (1000, 400)     # #2 and #3 after #1 took 1,500
    for value in range(0, 6001, 100):
        high, low = track.numbers(value)
        assert high + low == value and low <= high
    top = track.numbers(6000)
    assert track.numbers(7300) == (top[0] + track.numbers(1300)[0], top[1] + track.numbers(1300)[1])


def test_doctests():
    for module in (files, board_mod, cards_mod, options, metro):
        assert doctest.testmod(module).failed == 0, module.__name__


# --- refusing bad boards -----------------------------------------------------------------------------

def fault(mutate, load=lambda d: load_board(d, source="b.json")):
    d = default_board_data()
    mutate(d)
    with pytest.raises(DataError) as err:
        load(d)
    return err.value


def test_a_line_with_one_stop_is_refused():
    err = fault(lambda d: d["lines"][2].update(stops=d["lines"][2]["stops"][:1]))
    assert err.where == "/lines/2/stops" and "at least 2 stops" in err.reason
    assert str(err).startswith("b.json: /lines/2/stops:")


def test_a_stop_circle_on_no_line_is_refused():
    def orphan(d):
        d["stations"][0]["circles"].append({"id": "lonely", "x": 1, "y": 1, "fields": [[0, 0]]})
    err = fault(orphan)
    n = len(default_board_data()["stations"][0]["circles"])
    assert err.where == f"/stations/0/circles/{n}" and "no line" in err.reason and "lonely" in err.reason


def test_a_station_that_touches_no_field_is_refused():
    err = fault(lambda d: d["stations"][5]["circles"][0].update(fields=[]))
    assert err.where == "/stations/5/circles/0/fields" and "touches no field" in err.reason


def test_an_unknown_line_letter_is_refused():
    err = fault(lambda d: d["stations"][3].update(lines=["G", "Q"]))
    assert err.where == "/stations/3/lines/1" and "unknown line letter 'Q'" in err.reason


def test_a_stop_naming_no_circle_is_refused():
    err = fault(lambda d: d["lines"][4]["stops"].__setitem__(2, "atlantis"))
    assert err.where == "/lines/4/stops/2" and "'atlantis' is not a circle" in err.reason


@pytest.mark.parametrize("mutate, where, words", [
    (lambda d: d.pop("grid"), "/", "'grid' is required"),
    (lambda d: d["lines"][0].update(colour="orange"), "/lines/0/colour", "does not match"),
    (lambda d: d["lines"][2].update(letter="G"), "/lines/2/letter", "used twice"),
    (lambda d: d["stations"][2]["circles"][0]["fields"].append([99, 0]), "/stations/2/circles/0/fields/", "outside"),
    (lambda d: d["stations"][1].update(id=d["stations"][0]["id"]), "/stations/1/id", "used twice"),
    (lambda d: d["lines"][0]["stops"].append(d["lines"][0]["stops"][0]), "/lines/0/stops/", "twice"),
    (lambda d: d["start_area"].update(col=40), "/start_area", "runs off"),
    (lambda d: d.update(colour="x"), "/colour", "unknown field"),
    (lambda d: d["stations"][0].update(circles=[]), "/stations/0/circles", "1 to 3 stop circles"),
])
def test_other_board_faults_name_their_place(mutate, where, words):
    err = fault(mutate)
    assert err.where.startswith(where), (err.where, where)
    assert words in err.reason


def test_a_board_file_that_is_not_json(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"lines": [', encoding="utf-8")
    with pytest.raises(DataError) as err:
        board_mod.read_json(path)
    assert "broken.json" in str(err.value) and "line 1" in err.value.where


# --- refusing bad cards and tracks ---------------------------------------------------------------------

def deck_fault(mutate):
    d = data("action_cards.json")
    mutate(d)
    with pytest.raises(DataError) as err:
        load_deck(d, default_board(), "cards.json")
    return err.value


@pytest.mark.parametrize("mutate, where, words", [
    (lambda d: d["sets"][1]["colours"].__setitem__(0, "F"), "/sets/1/colours/0", "unknown line letter 'F'"),
    (lambda d: d["sets"][0]["cards"][0]["actions"][0].update(kind="teleport"), "/sets/0/cards/0/actions/0/kind", "not one of"),
    (lambda d: d["sets"][0]["cards"][0]["actions"][0].update(spaces=4), "/sets/0/cards/0/actions/0/spaces", "above the maximum 3"),
    (lambda d: d["sets"][0]["cards"][0].update(dots=0), "/sets/0/cards/0/dots", "below the minimum 1"),
    (lambda d: d["sets"][2]["cards"][0]["actions"][0].pop("amount"), "/sets/2/cards/0/actions/0", "needs an amount"),
    (lambda d: d["sets"][3]["cards"][1]["actions"][0].update(amount=100), "/sets/3/cards/1/actions/0/amount", "takes no amount"),
    (lambda d: d["sets"][2]["cards"][0]["actions"][0].update(amount=1050), "/sets/2/cards/0/actions/0/amount", "multiple of 100"),
    (lambda d: d["sets"][5]["cards"][8].update(id="GM1"), "/sets/5/cards/8/id", "used twice"),
    (lambda d: d["sets"][0]["cards"][0].update(actions=[]), "/sets/0/cards/0/actions", "at least 1"),
])
def test_action_card_faults_name_their_place(mutate, where, words):
    err = deck_fault(mutate)
    assert err.where == where, err
    assert words in err.reason, err


def test_stock_card_faults_name_their_place():
    d = data("stock_cards.json")
    d["cards"][4]["line"] = "X"
    with pytest.raises(DataError) as err:
        load_stock(d, default_board(), "stock.json")
    assert err.value.where == "/cards/4/line" and "unknown line letter 'X'" in err.value.reason
    d = data("stock_cards.json")
    del d["cards"][5]
    with pytest.raises(DataError) as err:
        load_stock(d, default_board(), "stock.json")
    assert "line M has 3 shares" in err.value.reason


def test_revenue_track_faults_name_their_place():
    d = data("revenue_track.json")
    d["rows"][10] = [1000, 100, 900]
    with pytest.raises(DataError) as err:
        load_track(d, "track.json")
    assert err.value.where == "/rows/10" and "above the higher" in err.value.reason
    d = data("revenue_track.json")
    d["rows"][3][0] = 350
    with pytest.raises(DataError) as err:
        load_track(d, "track.json")
    assert err.value.where == "/rows/3/0"


def test_a_game_with_bad_data_is_refused_at_setup_with_the_fault():
    bad = default_board_data()
    bad["lines"][0]["stops"] = bad["lines"][0]["stops"][:1]
    with pytest.raises(IllegalMove) as err:
        metro.setup({"names": ["A", "B"], "options": {"board": bad}})
    assert "option board: /lines/0/stops" in err.value.reason


def test_a_table_can_bring_its_own_cards():
    cards = data("action_cards.json")
    cards["sets"][0]["cards"][0]["actions"] = [{"kind": "loan", "spaces": 1}]
    state = metro.setup({"names": ["A", "B"], "options": {"action_cards": cards}})
    assert state.rules.deck.cards["GM1"].actions[0].kind == "loan"
    # the same options give the same rules (replays compare equal)
    again = metro.setup({"names": ["A", "B"], "options": copy.deepcopy({"action_cards": cards})})
    assert again.rules == state.rules and again == state


@pytest.mark.parametrize("options, words", [
    ({"colour": 1}, "unknown option"),
    ({"start_yen": -5}, "at least 0"),
    ({"board": "tokyo"}, "JSON object"),
    ({"cards_per_column": 10}, "fewer than the 10 cards"),
])
def test_bad_options_are_refused(options, words):
    with pytest.raises(IllegalMove) as err:
        metro.setup({"names": ["A", "B"], "options": options})
    assert words in err.value.reason


def test_player_counts():
    for n in (1, 2, 3, 4, 5):
        assert len(metro.setup({"names": ["x"] * n}).seats) == n
    with pytest.raises(IllegalMove, match="2 to 5 players"):
        metro.setup({"names": ["x"] * 6})
    assert state_mod.rules_for({}).players == 4


def test_small_stops_are_circles_of_no_station_and_never_terminals():
    """OSAKA METRO's trams and buses stop at small circles that are no station (files.BoardFile)."""
    from companion.rules.metro.board import default_board_data, load_board
    from companion.rules.metro.files import DataError
    data = default_board_data()
    line = data["lines"][0]
    data["small_stops"] = [{"id": "tiny", "x": 1.0, "y": 1.0, "fields": [[0, 0]]}]
    line["stops"].insert(1, "tiny")
    line.update(vehicles=2, vehicle="tram")
    board = load_board(data, "small.json")
    assert board.lines[0].stop_station[1] == -1 and board.lines[0].vehicles == 2
    assert board.geometry()["small_stops"] == [{"id": "tiny", "x": 1.0, "y": 1.0, "fields": [[0, 0]]}]
    line["stops"].insert(0, line["stops"].pop(1))
    with pytest.raises(DataError, match="first stop 'tiny' is a small stop"):
        load_board(data, "small.json")
