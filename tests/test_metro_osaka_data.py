"""OSAKA METRO's data files: the board, share cards, revenue track and action cards load with the
METRO loaders and have the shape the rule book gives the expansion (10 lines, 28 shares, 40 cards in
5 sets of 8, trams and buses running two vehicles between small stops)."""
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.board_layout import BoardLayout
from companion.rules.metro.board import load_board
from companion.rules.metro.cards import OSAKA_KINDS, load_deck, load_stock, load_track

DATA = Path(__file__).resolve().parents[1] / "companion" / "rules" / "metro" / "data"


def data(name):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def board():
    return load_board(data("osaka_board.json"), source="osaka_board.json")


def test_the_board_has_the_ten_lines_in_track_order_and_says_it_is_approximate(board):
    assert [ln.letter for ln in board.lines] == list("MTYCSKNIPB")
    assert board.approximate and "approximate" in board.name.lower()
    assert "ASSUMPTION" in board.data["note"]
    assert (board.cols, board.rows) == (22, 17)


def test_shares_number_28_with_every_count_from_1_to_4_and_1_to_4_disc_spaces(board):
    shares = {ln.letter: ln.shares for ln in board.lines}
    assert sum(shares.values()) == 28
    assert set(shares.values()) == {1, 2, 3, 4}
    assert (shares["M"], shares["P"], shares["B"]) == (4, 2, 1)
    assert {ln.disc_spaces for ln in board.lines} == {1, 2, 3, 4}


def test_tram_and_bus_run_two_vehicles_between_two_stations_over_small_stops(board):
    for letter, vehicle in (("P", "tram"), ("B", "bus")):
        line = board.lines[board.line_index[letter]]
        assert (line.vehicle, line.vehicles) == (vehicle, 2)
        assert line.stop_station[0] >= 0 and line.stop_station[-1] >= 0
        assert 2 <= sum(s < 0 for s in line.stop_station[1:-1]) <= 5
        assert all(s < 0 for s in line.stop_station[1:-1])
    trains = [ln for ln in board.lines if ln.letter not in "PB"]
    assert all((ln.vehicle, ln.vehicles) == ("train", 1) and -1 not in ln.stop_station for ln in trains)
    geometry = board.geometry()
    assert len(geometry["small_stops"]) == sum(c.station < 0 for c in board.circles) == 6


def test_interchanges_are_one_station_with_one_to_three_circles(board):
    lines_at = {st.id: {board.lines[i].letter for i in st.lines} for st in board.stations}
    assert lines_at["umeda"] == {"M", "T", "Y"}          # Umeda, Higashi-Umeda and Nishi-Umeda
    assert lines_at["shinsaibashi"] == {"M", "Y", "N"}   # with Yotsubashi
    assert lines_at["imazato"] == {"S", "I", "B"}
    assert lines_at["cosmosquare"] == {"C", "P"} and lines_at["suminoekoen"] == {"Y", "P"}
    assert all(1 <= len(st.circles) <= 3 for st in board.stations)


def test_every_circle_touches_a_field_no_two_share_a_place_and_the_start_area_is_free(board):
    assert all(1 <= len(c.fields) <= 4 for c in board.circles)
    places = Counter((c.x, c.y) for c in board.circles)
    assert max(places.values()) == 1
    area = board.data["start_area"]
    assert len(board.start_fields) == area["cols"] * area["rows"] and not board.blocked
    # the start area lies in the middle of the grid
    assert abs(2 * area["col"] + area["cols"] - board.cols) <= 1 and abs(2 * area["row"] + area["rows"] - board.rows) <= 1


def test_share_cards_cost_a_flat_300_on_top_from_share_2(board):
    stock = load_stock(data("osaka_stock_cards.json"), board, "osaka_stock_cards.json")
    assert [len(s) for s in stock.surcharges] == [ln.shares for ln in board.lines]
    assert stock.surcharges[board.line_index["M"]] == (0, 300, 300, 300)
    assert all(s[0] == 0 and set(s[1:]) <= {300} for s in stock.surcharges)


def test_the_track_is_the_tokyo_fit():
    track = load_track(data("osaka_revenue_track.json"), "osaka_revenue_track.json")
    assert track.numbers(2900) == (2000, 900) and track.numbers(1400) == (1000, 400)
    assert data("osaka_revenue_track.json")["rows"] == data("revenue_track.json")["rows"]


def test_the_deck_has_five_sets_of_eight_cards_of_one_and_two_dots_and_the_osaka_kinds(board):
    deck = load_deck(data("osaka_action_cards.json"), board, "osaka_action_cards.json")
    assert [(s.id, s.colours) for s in deck.sets] == [("MB", ("M", "B")), ("TY", ("T", "Y")), ("CI", ("C", "I")),
                                                      ("SN", ("S", "N")), ("KP", ("K", "P"))]
    assert len(deck.cards) == 40
    for column in range(5):
        assert [len(g) for g in deck.groups(column)] == [4, 4]
    assert {c.dots for c in deck.cards.values()} == {1, 2}
    kinds = Counter(a.kind for c in deck.cards.values() for a in c.actions)
    assert not {"start", "bid_bonus", "card"} & set(kinds)
    assert all(kinds[k] for k in OSAKA_KINDS)
    assert all(a.amount > 0 for c in deck.cards.values() for a in c.actions if a.kind == "copy")


def test_the_board_camera_reads_the_layout_with_a_place_for_every_stop(board):
    layout = BoardLayout.from_board(data("osaka_board.json"), "osaka_board.json")
    assert layout.line_letters == tuple("MTYCSKNIPB")
    assert all(len(layout.stops[ln.letter]) == len(ln.stops) for ln in board.lines)
    assert set(layout.pyramids) == {st.id for st in board.stations}   # none on a small stop


def test_build_osaka_reproduces_the_committed_files(tmp_path):
    out = tmp_path / "osaka_board.json"
    subprocess.run([sys.executable, str(DATA / "build_osaka.py"), "--out", str(out)], check=True, capture_output=True)
    for name in ("osaka_board.json", "osaka_stock_cards.json", "osaka_revenue_track.json"):
        assert (tmp_path / name).read_text(encoding="utf-8") == (DATA / name).read_text(encoding="utf-8"), name
