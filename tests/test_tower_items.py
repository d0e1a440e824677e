"""Items other than drinks in the tower (drinks.py, rules/tower.py, sim/tower.py; rule book 002, Mr.
Sudsy's laundromat): a detergent bottle sticks and is freed by its own kind alone; the simulated tower
has odds per kind; a camera's reading never settles a drop in which a bottle may come out, while the
simulated table's and a person's do."""
from __future__ import annotations

import pytest

from companion.drinks import DETERGENT_IDS, DRINK_IDS, TOWER_ITEM_IDS, item_kind
from companion.observation import Observation
from companion.rules.engine import IllegalMove
from companion.rules.tower import ITEM_KINDS, Tower
from companion.sim.table import SIM_TABLE
from companion.sim.tower import SimTower
from companion.table.session import TableSession


def test_every_item_has_one_kind_and_the_kinds_say_what_frees_them():
    assert {item_kind(x) for x in DRINK_IDS} == {"drink"} and {item_kind(x) for x in DETERGENT_IDS} == {"detergent"}
    assert len(set(TOWER_ITEM_IDS)) == 36 + len(DETERGENT_IDS)
    with pytest.raises(ValueError, match="detergent-1"):
        item_kind("soap")
    assert ITEM_KINDS["drink"].freed_by is None and ITEM_KINDS["detergent"].freed_by == {"detergent"}
    with pytest.raises(IllegalMove, match="cannot go through the tower"):
        Tower().drop(("soap",), ())


def test_drinks_free_drinks_as_before_and_a_bottle_frees_both():
    t, _ = Tower().drop(("red-tall_can", "detergent-1"), ())
    assert t.freeable_by(("blue-tall_can",)) == ("red-tall_can",)
    assert t.freeable_by(("detergent-2",)) == ("detergent-1", "red-tall_can")
    assert t.freeable_by(()) == ("red-tall_can",)        # a drop with nothing thrown (as before)
    assert t.loose == ("red-tall_can",)
    assert t.spill(("red-tall_can",)).inside == {"detergent-1"}


def test_the_simulated_tower_has_odds_per_kind_and_draws_as_before_for_drinks():
    drinks = ["red-tall_can", "blue-short_can", "mint-stubby_can"]
    old = __import__("random").Random(5)
    expected = [d for d in drinks if old.random() < 0.8] + [d for d in ["white-tall_can"] if old.random() < 0.5]
    assert SimTower(seed=5).drop(drinks, ["white-tall_can"]).appeared == sorted(expected)
    # a bottle sticks more often than a drink, and is pushed out more often: over many seeds
    out = sum("detergent-1" in SimTower(seed=i).drop(["detergent-1"], []).appeared for i in range(2000))
    pushed = sum("detergent-2" in SimTower(seed=i).drop(["detergent-1"], ["detergent-2"]).appeared
                 for i in range(2000))
    assert 0.55 < out / 2000 < 0.65 and 0.86 < pushed / 2000 < 0.94


def _awaiting_a_bottle(store):
    session = TableSession.create(store, "mr_sudsy", ["A"], seed=1, automation=SIM_TABLE)
    while session.state.phase != "drop":
        session.submit(next(m for m in session.allowed_moves(None) if m.kind == "buy"), None)
    return session


def test_a_camera_reading_never_settles_a_drop_of_a_bottle(store):
    session = _awaiting_a_bottle(store)
    before = session.state
    result = session.observe(Observation(source="camera", appeared=[]))
    assert result["result"] == "ignored" and "tap" in result["why"] and session.state == before


def test_a_person_or_the_simulated_table_reports_the_bottle(store):
    session = _awaiting_a_bottle(store)
    result = session.observe(Observation(source="person", appeared=["detergent-1"]))
    assert result["result"] == "applied" and session.state.seats[0].held == ("detergent-1",)
    session.submit(next(m for m in session.allowed_moves(None) if m.kind == "buy"), None)
    session.config["sim_tower"] = {"p_out": 0.0}   # drinks' odds only: a bottle keeps its own
    result = session.throw()
    assert result["result"] == "applied" and session.state.phase == "shop"


def test_the_towers_books_count_a_bottle_like_a_drink(store):
    from companion.table import drops

    session = _awaiting_a_bottle(store)
    session.observe(Observation(source="person", appeared=[]))              # detergent-1 stuck
    session.submit(next(m for m in session.allowed_moves(None) if m.kind == "buy"), None)
    session.observe(Observation(source="person", appeared=["detergent-1", "detergent-2"]))
    books = drops.tally(session.game, session.folded.history)
    assert books["drops"] == 2 and books["stuck_drops"] == 1
    assert books["drinks"]["detergent-1"] == {"thrown": 1, "first": 0, "stuck": 1, "freed": 1, "spilled": 0}
    assert books["drinks"]["detergent-2"]["first"] == 1

