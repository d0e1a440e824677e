"""The landing camera's table side (table/landing_moves.py, landing_watch.py) on real sessions over a
real SQLite store: landings read as a perfect camera would (``landing.truth`` of composed scenes)
settle and become the upside-down tower's ``land`` moves and LEMON SQUASH's ``farthest`` order;
doubt, a drink not seen and a tie become questions with the likeliest answer first; a hand or a
problem proposes nothing; a confirmed proposal is made as any move is; a stale one changes nothing.
A simulated table leaves the landings to a landing camera that runs, and draws them itself
without one."""
from __future__ import annotations

import numpy as np
import pytest

from companion.landing import Landing, LandingReading, truth
from companion.rules.engine import CHANCE, Move
from companion.sim.landing_layouts import compose
from companion.sim.table import SIM_TABLE
from companion.table.errors import Forbidden, IllegalMove
from companion.table.landing_moves import MAX_CANDIDATES, explain, tie, wanted
from companion.table.landing_watch import HANDS_STUCK_S
from companion.table.session import TableSession
from companion.table.tables import Tables
from companion.table.watch import SETTLE_S, BadAnswer

PRESENT = {"present": True, "simulated": True, "feeding": True, "problem": None}


def camera(_game_id):
    return PRESENT


def play_until(session, phase: str, limit: int = 200) -> None:
    """Everyone makes the first move offered (bids of 0, no stock, passes...) until ``phase``."""
    for _ in range(limit):
        if session.state.phase == phase:
            return
        pending = session.game.pending(session.state)
        actor = pending[0].actor
        assert actor != CHANCE, f"chance waits in {session.state.phase}"
        moves = session.game.legal_moves(session.state, actor)
        if session.state.phase == "throw":
            moves = sorted(moves, key=lambda m: m.args["drinks"])
        session.submit(moves[0], actor)
    raise AssertionError(f"never reached {phase}")


def tower(store, landing_camera=camera, bots=(), until="land") -> TableSession:
    s = TableSession.create(store, "upside_down_tower", ["Aki", "Ben", "Chi"], bots=list(bots), seed=5,
                            automation=SIM_TABLE, landing_camera=landing_camera)
    if not bots:
        play_until(s, until)
    return s


def squash(store, landing_camera=camera, players=3) -> TableSession:
    return TableSession.create(store, "lemon_squash", [f"P{i}" for i in range(players)], seed=2,
                               automation=SIM_TABLE, landing_camera=landing_camera)


def scene_reading(wants, asked, seed=0) -> LandingReading:
    return truth(compose(wants, np.random.default_rng(seed)), tuple(asked))


def settle(watch, reading, t0: float, frames: int = 3) -> str | None:
    out = None
    for i in range(frames):
        out = watch.feed(reading, at=t0 + i * SETTLE_S / (frames - 1)) or out
    return out


def spots(moves) -> list[tuple[str, str]]:
    return [(m.args["drink"], m.args["spot"]) for m in moves]


# --- the moves a reading explains ------------------------------------------------------------------

def test_thrown_drinks_seen_sure_are_one_sequence_of_land_moves(store):
    s = tower(store)
    a, b = s.state.thrown
    assert wanted(s.game, s.state).drinks == (a, b)
    reading = scene_reading([(b, "outside", 200), (a, "slot", None)], (a, b))
    found = explain(s.game, s.state, reading)
    assert [spots(c) for c in found.explanations] == [[(a, "slot"), (b, "outside")]]


def test_doubt_and_a_drink_not_seen_are_questions_likeliest_first(store):
    s = tower(store)
    a, b = s.state.thrown
    unsure = LandingReading(landings=[Landing(drink=a, spot="crate", distance_mm=70, sure=False),
                                      Landing(drink=b, spot="outside", distance_mm=240)])
    found = explain(s.game, s.state, unsure)
    assert [spots(c)[0][1] for c in found.explanations] == ["crate", "slot", "outside", "stuck"]
    assert all(spots(c)[1] == (b, "outside") for c in found.explanations)
    # b not seen while a is: the tower was lifted; b is likeliest still inside it
    one_seen = LandingReading(landings=[Landing(drink=a, spot="slot", distance_mm=60),
                                        Landing(drink=b, seen=False, sure=False)])
    found = explain(s.game, s.state, one_seen)
    assert [spots(c)[1][1] for c in found.explanations] == ["stuck", "slot", "crate", "outside"]
    # neither seen: the tower is not lifted yet, nothing to ask
    none_seen = LandingReading(landings=[Landing(drink=a, seen=False, sure=False),
                                         Landing(drink=b, seen=False, sure=False)])
    assert explain(s.game, s.state, none_seen).explanations == ()
    assert explain(s.game, s.state, LandingReading(codes=["hand"])).explanations == ()


def test_short_cans_give_the_start_order_farthest_first_and_ties_ask(store):
    s = squash(store, players=4)
    want = wanted(s.game, s.state)
    assert want.kind == "farthest"
    assert want.drinks == tuple(f"{c}-short_can" for c in ("black", "white", "mint", "blue"))
    far = {"black-short_can": 250, "white-short_can": 480, "mint-short_can": 130, "blue-short_can": 330}
    reading = scene_reading([(d, None, far[d]) for d in want.drinks], want.drinks)
    found = explain(s.game, s.state, reading)
    assert len(found.explanations) == 1
    assert [m.args["unit"] for m in found.explanations[0]] == [1, 3, 0]   # the last (mint, unit 2) follows
    # black and blue 6 mm apart: a tie, both orders asked, the one read first
    tied = LandingReading(landings=[Landing(drink=d, spot="outside", distance_mm=v) for d, v in
                                    {**far, "black-short_can": 324}.items()])
    assert tie(324, 330) and not tie(250, 330)
    found = explain(s.game, s.state, tied)
    assert [[m.args["unit"] for m in c] for c in found.explanations] == [[1, 3, 0], [1, 0, 3]]
    # white not seen: put last first, then each place before
    missing = LandingReading(landings=[Landing(drink=d, spot="outside", distance_mm=v) if d != "white-short_can"
                                       else Landing(drink=d, seen=False, sure=False) for d, v in far.items()])
    found = explain(s.game, s.state, missing)
    assert [[m.args["unit"] for m in c] for c in found.explanations] == [[3, 0, 2], [3, 0, 1], [3, 1, 0], [1, 3, 0]]
    assert len(found.explanations) <= MAX_CANDIDATES


# --- the watch ---------------------------------------------------------------------------------------

def test_settled_landings_are_proposed_and_confirmed_as_any_move(store):
    s = tower(store)
    a, b = s.state.thrown
    assert s.state.phase == "land", "a running landing camera holds the simulated table's landings"
    watch = s.landing_watch
    assert watch.to_json()["waiting"] == {"kind": "land", "asked": [a, b], "units": []}
    reading = scene_reading([(a, "crate", None), (b, "slot", None)], (a, b))
    assert watch.feed(reading, at=0.0) is None     # one frame settles nothing
    assert settle(watch, reading, 1.0) == "proposal"
    shown = watch.to_json()
    assert [(m["args"]["drink"], m["args"]["spot"]) for m in shown["proposal"]["moves"]] == [(a, "crate"), (b, "slot")]
    assert [d["spot"] for d in shown["differences"]] == ["crate", "slot"]
    with pytest.raises(Forbidden):
        watch.confirm(shown["proposal"]["id"], None, 0)   # a phone does not enter the tower's outcomes
    watch.confirm(shown["proposal"]["id"], None, None)
    assert s.state.phase in ("sell", "bid")
    assert [r["by"] for r in s.records[-2:]] == ["landings", "landings"]
    assert s.records[-1]["confirmed"] == "table"
    assert watch.to_json()["matches"] is True and watch.to_json()["waiting"] is None


def test_a_question_is_answered_with_a_candidate(store):
    s = tower(store)
    a, b = s.state.thrown
    watch = s.landing_watch
    reading = LandingReading(landings=[Landing(drink=a, spot="slot", distance_mm=60),
                                       Landing(drink=b, seen=False, sure=False)])
    assert settle(watch, reading, 0.0) == "question"
    shown = watch.to_json()
    assert len(shown["candidates"]) == 4 and shown["unsure"] == [b]
    with pytest.raises(BadAnswer):
        watch.confirm(shown["proposal"]["id"], None, None)
    watch.set_auto(True)   # auto mode never answers a question
    assert settle(watch, reading, 5.0) is None and s.state.phase == "land"
    watch.confirm(shown["proposal"]["id"], 2, None)   # crate
    assert s.state.last_round["landed"] == [[a, "slot"], [b, "crate"]]


def test_a_hand_proposes_nothing_and_a_stuck_hand_is_shown(store):
    s = tower(store)
    a, b = s.state.thrown
    watch = s.landing_watch
    hand = LandingReading(codes=["hand"])
    for i in range(8):
        assert watch.feed(hand, at=i * 0.5) == "skipped"
    assert watch.proposal is None and watch.problem is None
    watch.feed(hand, at=HANDS_STUCK_S + 1)
    assert watch.to_json()["problem"]["code"] == "hands"
    watch.feed(LandingReading(codes=["not_calibrated"]), at=HANDS_STUCK_S + 2)
    assert watch.to_json()["problem"]["code"] == "not_calibrated"
    # a hand in the middle of a run: the run starts again after it
    reading = scene_reading([(a, "outside", 150), (b, "outside", 300)], (a, b))
    watch.feed(reading, at=30.0)
    watch.feed(reading, at=30.3)
    watch.feed(hand, at=30.4)
    assert watch.feed(reading, at=30.7) is None and watch.proposal is None
    assert watch.problem is None


def test_auto_mode_makes_a_sure_proposal_at_once_and_a_stale_one_changes_nothing(store):
    s = tower(store)
    a, b = s.state.thrown
    watch = s.landing_watch
    reading = scene_reading([(a, "outside", 150), (b, "slot", None)], (a, b))
    assert settle(watch, reading, 0.0) == "proposal"
    stale = watch.proposal.id
    s.submit(Move("land", CHANCE, {"drink": a, "spot": "crate"}), None)   # tapped on the dashboard
    records = len(s.records)
    with pytest.raises(IllegalMove):
        watch.confirm(stale, None, None)
    assert len(s.records) == records
    assert watch.to_json()["waiting"]["asked"] == [b]
    assert watch.to_json()["cause"] != "dashboard"   # nothing to copy onto the table
    watch.set_auto(True)
    reading_b = LandingReading(landings=[x for x in reading.landings if x.drink == b])
    assert settle(watch, reading_b, 2.0) == "applied"
    assert s.state.last_round["landed"] == [[a, "crate"], [b, "slot"]]
    assert s.records[-1]["confirmed"] == "auto"


def test_lemon_squash_start_order_from_the_short_cans(store):
    s = squash(store)
    assert s.state.phase == "order"
    watch = s.landing_watch
    want = wanted(s.game, s.state)
    reading = scene_reading(list(zip(want.drinks, [None] * 3, [200, 420, 310])), want.drinks)
    assert settle(watch, reading, 0.0) == "proposal"
    watch.confirm(watch.proposal.id, None, None)
    assert s.state.start_order == (1, 2, 0)


# --- who draws the landings on a simulated table ------------------------------------------------------

def test_a_simulated_table_draws_landings_itself_without_a_landing_camera(store):
    s = tower(store, landing_camera=lambda _gid: None, until="sell")
    assert [r["by"] for r in s.records if r.get("move", {}).get("kind") == "land"] == ["sim", "sim"]
    assert s.landing_watch.to_json()["present"] is False
    lemon = squash(store, landing_camera=None)
    assert lemon.state.phase != "order"


def test_a_table_of_computers_does_not_wait_for_the_camera(store):
    s = tower(store, bots=(0, 1, 2))
    assert any(r.get("move", {}).get("kind") == "land" and r["by"] == "sim" for r in s.records)


def test_a_game_resumed_waiting_for_landings_waits_for_the_coming_camera(store):
    s = tower(store)
    assert s.state.phase == "land"
    resumed = Tables(store, automation=SIM_TABLE, landing_camera_coming=True).get(s.id)
    assert resumed.state.phase == "land" and resumed.landing_watch.reads_now()
    without = Tables(store, automation=SIM_TABLE).get(s.id)   # no landing camera: the simulated table draws
    assert without.state.phase != "land"


def test_the_camera_reads_for_the_newest_game_waiting_for_landings(store):
    tables = Tables(store, automation=SIM_TABLE, landing_camera_coming=True)
    tower_game = tables.create("upside_down_tower", ["Aki", "Ben", "Chi"], seed=5)
    assert tables.landings_in_play() is None or tables.landings_in_play().id == tower_game.id
    play_until(tower_game, "land")
    lemon = tables.create("lemon_squash", ["Aki", "Ben"], seed=1)
    assert tables.landings_in_play().id == lemon.id   # created last, and waiting for the short cans
    lemon.submit(Move("farthest", CHANCE, {"unit": 1}), None)
    assert lemon.state.phase != "order"
    # the game moved in last waits for no landing now: the tower's throw, still waiting, is read
    assert tables.landings_in_play().id == tower_game.id
    assert tables.landing_status(tower_game.id)["present"]
