"""METRO DRINKS on the board camera: each station's drink place (companion/board_layout.py,
rules/metro/data/build_layout.py), the simulated board drawing standing drinks
(companion/sim/board_render.py, board_solids.py) and the reader telling their colours
(companion/vision/board_drinks.py), on development-family looks (seeds below 100: the
benchmark's and the training's are others)."""
from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest

from companion.board_layout import BOARD_FILE, BoardLayout
from companion.board_pieces import Pieces, differences
from companion.drinks import COLOURS
from companion.rules.metro.data.build_layout import DRINK_R
from companion.sim.board_looks import BoardLook
from companion.sim.board_render import BoardRenderer
from companion.vision.board_pose import BoardTracker, rectify
from companion.vision import board_model
from companion.vision.board_read import BoardReader

LAYOUT = BoardLayout.default()
LOOK_SEEDS = (12, 23)

# the six colours at stations of several kinds (crowded interchanges among them), each with its
# owner's pyramid (a drink is built only where a pyramid stands)
DRINKS = {"otemachi": "red-tall_can", "ginza": "white-stubby_can", "shinjuku": "black-tallest_bottle",
          "ueno": "mint-square_bottle", "ikebukuro": "blue-short_can", "shibuya": "purple-not_tallest_bottle",
          "kudanshita": "red-stubby_can", "nakano": "white-tallest_bottle", "oshiage-skytree": "mint-tall_can"}
BOARD = Pieces(
    pyramids={sid: ["red", "blue", "yellow", "green", "purple"][i % 5] for i, sid in enumerate(DRINKS)}
    | {"kayabacho": "red", "mitsukoshimae": "blue"},
    meeples={"red": "field:130", "blue": "ride:G"}, trains={"G": 3, "M": 10}, values={"G": 1400, "M": 600},
    drinks=DRINKS)


def test_every_station_has_a_drink_place_clear_of_its_neighbours():
    data = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    assert set(LAYOUT.drinks) == {s["id"] for s in data["stations"]}
    spots = list(LAYOUT.drink_spots())
    assert all(s.kind == "drink" and s.id == f"drink:{s.id[6:]}" for s in spots)
    # the place model's places are the ones they were: drinks are read apart
    assert not any(s.kind == "drink" for s in LAYOUT.spots())
    assert LAYOUT.spot("drink:ueno").kind == "drink"
    others = np.array([(s.x, s.y) for s in LAYOUT.spots() if s.kind != "rider"])
    for s in spots:
        near = np.hypot(*(others - (s.x, s.y)).T).min()
        # the reader looks at the middle of a base: a drink never stands on another piece's middle
        assert near > DRINK_R, s.id
        assert math.dist((s.x, s.y), LAYOUT.pyramids[s.id[6:]]) < 45.0, s.id   # beside its own pyramid (or its own circles)


def test_a_calibration_carries_the_drink_places_with_the_others():
    data = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    moved = LAYOUT.mapped(lambda p: p + np.array([3.0, -2.0]))
    assert moved.drinks["ueno"] == pytest.approx((LAYOUT.drinks["ueno"][0] + 3, LAYOUT.drinks["ueno"][1] - 2))
    again = BoardLayout.from_board({**data, "layout": moved.to_data()})
    assert again.drinks["ueno"] == pytest.approx(moved.drinks["ueno"], abs=0.01)


def test_drinks_compare_by_colour_where_only_the_colour_is_read():
    game = Pieces(drinks={"ueno": "red-tall_can", "ginza": "mint-stubby_can"})
    seen = Pieces(drinks={"ueno": "red", "ginza": "blue", "kayabacho": "white"})
    diffs = differences(game, seen)
    assert [(d.piece, d.key, d.game, d.board) for d in diffs] == [
        ("drink", "ginza", "mint-stubby_can", "blue"), ("drink", "kayabacho", None, "white")]
    assert [d.key for d in differences(game, seen, unsure={"drink:ginza"})] == ["kayabacho"]
    assert differences(game, Pieces(drinks={"ueno": "red-short_can", "ginza": "mint"}))[0].key == "ueno"
    with pytest.raises(ValueError, match="drink id"):
        Pieces(drinks={"ueno": "orange"})


@pytest.fixture(scope="module", params=LOOK_SEEDS)
def look(request):
    cv2.setNumThreads(1)
    renderer = BoardRenderer(LAYOUT, BoardLook.from_seed(request.param, "dev"))
    empty, _ = renderer.render(Pieces(), rng=np.random.default_rng(1))
    tracker = BoardTracker(LAYOUT)
    pose = tracker.locate(empty)
    assert pose.state == "locked"
    return renderer, BoardReader(LAYOUT, rectify(empty, pose, LAYOUT), tracker=tracker)


def test_drinks_at_stations_are_read_by_colour(look):
    renderer, reader = look
    frame, truth = renderer.render(BOARD, rng=np.random.default_rng(2))
    assert {p["spot"] for p in truth["placed"] if p["kind"] == "drink"} == {f"drink:{s}" for s in DRINKS}
    reading = reader.read(frame)
    want = {sid: d.split("-")[0] for sid, d in DRINKS.items()}
    assert set(want.values()) == {c.value for c in COLOURS}
    assert reading.pieces.drinks == want
    assert not [u for u in reading.unsure if u.startswith("drink:")]
    # the drinks beside them leave the other places' readings as they were
    assert reading.pieces.model_copy(update={"drinks": {}}) == BOARD.model_copy(update={"drinks": {}})
    assert reading.unsure == []


def test_a_drink_taken_away_is_read_as_empty(look):
    renderer, reader = look
    fewer = {k: v for k, v in DRINKS.items() if k not in ("ginza", "shinjuku")}
    frame, _ = renderer.render(BOARD.model_copy(update={"drinks": fewer}), rng=np.random.default_rng(3))
    reading = reader.read(frame)
    # the two places taken away are read empty, surely; each drink left is read right or left to a
    # person (a white drink on white paper may be), none read wrong
    assert "ginza" not in reading.pieces.drinks and "shinjuku" not in reading.pieces.drinks
    assert "drink:ginza" not in reading.unsure and "drink:shinjuku" not in reading.unsure
    assert set(reading.pieces.drinks) <= set(fewer)
    for sid, drink in fewer.items():
        assert reading.pieces.drinks.get(sid) == drink.split("-")[0] or f"drink:{sid}" in reading.unsure, sid
    assert sum(u.startswith("drink:") for u in reading.unsure) <= 3     # of 147 drink places


def test_a_pyramid_in_doubt_only_by_its_colour_leaves_its_drink_read(look):
    renderer, reader = look
    # the same frame read by a table where green and purple are not in play: their pyramids
    # (at ueno and ikebukuro) are surely there but of no player's colour, so they are doubtful;
    # the drinks beside them are still read, while a pyramid that may not be there at all would
    # leave its drink place in doubt too
    frame, _ = renderer.render(BOARD, rng=np.random.default_rng(2))
    table = BoardReader(LAYOUT, reader.reference.astype(np.uint8), players=("red", "blue", "yellow"),
                        tracker=reader.tracker)
    reading = table.read(frame)
    assert {"station:ueno", "station:ikebukuro"} <= set(reading.unsure)
    assert reading.pieces.drinks.get("ueno") == "mint" and reading.pieces.drinks.get("ikebukuro") == "blue"
    assert "drink:ueno" not in reading.unsure and "drink:ikebukuro" not in reading.unsure


def test_a_train_beside_a_drink_needs_the_surer_bar(look):
    """A stop within the model's clear_mm of a drink read (or of a drink place left in doubt) is
    read with the bar of stops near a drink; a stop clear of drinks with its own, lower bar."""
    _, reader = look
    model = reader.model
    assert model.clear_bars[1] < model.sure_train
    ids = [spot.id for spot in reader._sampling.spots]
    near = reader._near_drink[:, list(reader.drink_spots.ids).index("drink:ginza")]
    beside = next(i for i, sid in enumerate(ids) if sid.startswith("stop:") and near[i])
    letter = ids[beside].split(":")[1]
    clear = next(i for i, sid in enumerate(ids) if sid.startswith("stop:") and not near[i] and sid.split(":")[1] != letter)
    conf = (model.clear_bars[1] + model.sure_train) / 2      # between the two bars
    p = np.zeros((len(ids), len(board_model.CLASSES)))
    p[:, 0] = 1.0
    for i in (beside, clear):
        p[i] = 0.0
        p[i, 0], p[i, -1] = 1.0 - conf, conf
    x = np.zeros((len(ids), board_model.N_FEATURES))
    x[:, board_model.feature_names().index("kind_train")] = [sid.startswith("stop:") for sid in ids]
    # a drink at ginza: the stop beside it stays in doubt, the one clear of drinks is read
    pieces, unsure, _, _ = reader._assemble(p, x, reader._clear_of({"ginza": "white"}, []))
    assert ids[beside] in unsure and ids[clear] not in unsure
    assert pieces["trains"] == {ids[clear].split(":")[1]: int(ids[clear].split(":")[2])}
    # the drink place only in doubt keeps the stop beside it in doubt too
    assert ids[beside] in reader._assemble(p, x, reader._clear_of({}, ["drink:ginza"]))[1]
    # no drink near: both read
    pieces, unsure, _, _ = reader._assemble(p, x, reader._clear_of({}, []))
    assert ids[beside] not in unsure and len(pieces["trains"]) == 2


def test_more_drinks_of_a_colour_than_the_game_has_are_all_left_in_doubt():
    """METRO DRINKS has six drinks of each colour: a board read with seven white drinks is wrong
    somewhere (a lamp that turns empty paper or mint lids white), so none of the seven is sure."""
    from companion.vision.board_drinks import DRINK_CLASSES, PER_COLOUR, DrinkModel, DrinkSpots, feature_names
    names = feature_names()
    k = len(DRINK_CLASSES)
    # a classifier of the numbers' kind that names every place it is asked about white, surely
    always_white = DrinkModel({"mean": np.zeros(len(names)), "std": np.ones(len(names)),
                               "w1": np.zeros((len(names), 4)), "b1": np.zeros(4), "w2": np.zeros((4, k)),
                               "b2": np.where(np.arange(k) == DRINK_CLASSES.index("white"), 20.0, 0.0)},
                              {"inputs": names, "classes": list(DRINK_CLASSES), "sure": 0.99})
    spots = DrinkSpots(LAYOUT, np.full((20, 20, 3), 200, np.uint8), np.array([200.0] * 3), 1.0, model=always_white)
    x = np.zeros((len(spots.ids), len(names)))
    x[:, names.index("base_changed_3")] = 1.0                 # every place changed: all are asked
    stations = [sid.partition(":")[2] for sid in spots.ids]
    assert PER_COLOUR == 6
    drinks, unsure = spots.read(x, set(stations[:PER_COLOUR]))
    assert drinks == {sid: "white" for sid in stations[:PER_COLOUR]} and unsure == []
    drinks, unsure = spots.read(x, set(stations[:PER_COLOUR + 1]))
    assert drinks == {} and unsure == [f"drink:{sid}" for sid in stations[:PER_COLOUR + 1]]
