"""The game's knowledge settles a doubtful reading of the tray, or asks with the likely answer
preselected (companion/table/reconcile.py), and the session applies, asks and logs accordingly:
each drink exists once, only what was thrown in or is stuck inside can come out, and the exit
beam counted how many did. A drop that the beam contradicts is taken only with the override."""
from __future__ import annotations

import pytest

from companion.drinks import DRINK_IDS
from companion.observation import Observation
from companion.rules.engine import CHANCE, Move
from companion.sim.table import SIM_TABLE  # the simulated table, wired in as `companion serve` does
from companion.table.reconcile import Reading, readings_of, reconcile
from companion.table.session import BeamsDisagree, TableSession

THROWN = ["red-tall_can", "white-square_bottle", "blue-stubby_can"]


def test_sure_readings_of_thrown_drinks_are_taken_as_read():
    a = reconcile([Reading("red-tall_can", 0.97), Reading("blue-stubby_can", 0.9)], THROWN, 2)
    assert a.settled and a.out == ("blue-stubby_can", "red-tall_can") and not a.decisions and not a.changed


def test_an_unsure_reading_of_the_only_drink_of_its_colour_or_shape_is_settled_as_read():
    # red-tall_can: no other candidate is red or a tall can
    a = reconcile([Reading("red-tall_can", 0.45, unsure=True)], THROWN, 1)
    assert a.settled and a.out == ("red-tall_can",)
    assert a.decisions[0]["as"] == "red-tall_can" and "only drink left in the tower" in a.decisions[0]["why"]


def test_a_reading_of_a_drink_that_cannot_have_come_out_is_replaced_when_one_is_like_it():
    # mint-square_bottle was never thrown; white-square_bottle is the only square bottle (and no mint)
    a = reconcile([Reading("mint-square_bottle", 0.99)], THROWN, 1)
    assert a.settled and a.out == ("white-square_bottle",) and a.changed
    assert a.decisions[0]["read"] == "mint-square_bottle" and "cannot have come out" in a.decisions[0]["why"]
    # the same without beams: the count is the camera's, the drink the table's knowledge
    assert reconcile([Reading("mint-square_bottle", 0.6, unsure=True)], THROWN, None).out == ("white-square_bottle",)


def test_two_readings_of_one_drink_give_the_second_to_the_other_drink_of_that_colour():
    thrown = ["white-square_bottle", "white-tall_can", "blue-stubby_can"]
    a = reconcile([Reading("white-square_bottle", 0.95), Reading("white-square_bottle", 0.3, unsure=True)],
                  thrown, 2)
    # white-tall_can shares the colour, nothing else free shares colour or shape: settled
    assert a.settled and a.out == ("white-square_bottle", "white-tall_can")


def test_a_doubt_the_game_cannot_settle_is_asked_with_the_likely_drink_preselected():
    thrown = ["red-tall_can", "red-short_can", "blue-tallest_bottle"]
    # red-stubby_can cannot have come out; both red cans share its colour: the short one is the
    # nearer in height, so it is preselected, but not settled
    a = reconcile([Reading("red-stubby_can", 0.5, unsure=True)], thrown, 1)
    assert not a.settled and a.out == ("red-short_can",)
    assert a.decisions[0]["as"] == "red-short_can" and "most likely red-short_can" in a.doubts[0]
    # an unsure reading of a thrown drink that has a look-alike in the tower: itself, asked
    a = reconcile([Reading("red-short_can", 0.5, unsure=True)], thrown, 1)
    assert not a.settled and a.out == ("red-short_can",) and "red-tall_can" in a.doubts[0]
    # two candidates equally like it: none preselected, still asked
    a = reconcile([Reading("black-tall_can", 0.9)], ["red-tall_can", "blue-tall_can", "mint-stubby_can"], 1)
    assert not a.settled and a.out == () and a.decisions[0]["as"] is None


def test_the_count_fills_in_the_drinks_the_camera_missed_when_only_they_are_left():
    inside = ["mint-stubby_can"]
    # the camera saw 2 of the 4 candidates, the beam counted 4: every drink in the tower came out
    a = reconcile([Reading("red-tall_can", 0.97), Reading("blue-stubby_can", 0.95)], THROWN + inside, 4)
    assert not a.settled and a.out == tuple(sorted(THROWN + inside))
    assert [d["read"] for d in a.decisions] == [None, None] and "exit beam counted 4" in a.doubts[0]
    # the beam counted 3 of 4: which one is missing is not known: asked with the reading as it is
    a = reconcile([Reading("red-tall_can", 0.97), Reading("blue-stubby_can", 0.95)], THROWN + inside, 3)
    assert not a.settled and a.out == ("blue-stubby_can", "red-tall_can")


def test_the_count_leaves_out_the_least_sure_doubtful_drink_when_too_many_were_read():
    a = reconcile([Reading("red-tall_can", 0.97), Reading("blue-stubby_can", 0.5, unsure=True),
                   Reading("white-square_bottle", 0.6, unsure=True)], THROWN, 2)
    assert not a.settled and a.out == ("red-tall_can", "white-square_bottle")
    assert a.decisions[-1] == {"rule": "count", "read": "blue-stubby_can", "as": None,
                               "why": "the exit beam counted 2: the least sure reading (blue-stubby_can) is left out"}


def test_without_candidates_nothing_is_settled_by_them():
    a = reconcile([Reading("red-tall_can", 0.4)], None, None)
    assert not a.settled and a.out == ("red-tall_can",)


def test_readings_come_from_the_new_detections_and_junk_is_passed_over():
    detail = {"detections": [
        {"id": "red-tall_can", "confidence": 0.97, "unsure": False, "new": True},
        {"id": "red-tall_can", "confidence": 0.3, "unsure": True, "new": True},     # read twice
        {"id": "blue-stubby_can", "confidence": 0.99, "unsure": False, "new": False},  # there before
        {"id": "blue-stubby_can", "confidence": 0.35, "unsure": True, "new": True},    # and read again elsewhere
        {"id": "lemon-can", "confidence": 0.9, "new": True}, {"id": "white-tall_can", "confidence": "x"},
        "nonsense", {"id": "mint-tall_can", "confidence": float("nan"), "new": True}]}
    got = readings_of(["red-tall_can"], 0.4, detail)
    assert got == [Reading("red-tall_can", 0.97), Reading("red-tall_can", 0.3, unsure=True),
                   Reading("blue-stubby_can", 0.35, unsure=True)]
    # no detections (a person's report): the observation's confidence, its unsure list
    assert readings_of(["red-tall_can", "blue-stubby_can"], 0.6, {"unsure": ["red-tall_can"], "detections": 7}) == \
        [Reading("red-tall_can", 0.6, unsure=True), Reading("blue-stubby_can", 0.6)]


# --- in the session -------------------------------------------------------------------------------

@pytest.fixture
def at_drop(store):
    """A POCARI BET table (three people, simulated tower) at its first throw."""
    session = TableSession.create(store, "pocari_bet", ["A", "B", "C"], seed=3, automation=SIM_TABLE)
    while session.state.phase != "drop":
        session.submit(session.allowed_moves(None)[0], None)
    return session


def detections(*readings: tuple[str, float, bool]) -> dict:
    dets = [{"id": d, "color": d.split("-")[0], "shape": d.split("-")[1], "x": 100.0 * i, "y": 300.0,
             "confidence": c, "unsure": u, "why": "", "new": True} for i, (d, c, u) in enumerate(readings)]
    return {"detections": dets, "before": [], "unsure": [d for d, _, u in readings if u], "notes": []}


def camera(readings: list[tuple[str, float, bool]], source: str = "camera") -> Observation:
    return Observation(source=source, appeared=sorted({d for d, _, _ in readings}),
                       confidence=min([c for _, c, _ in readings] + [1.0]) if all(not u for *_, u in readings) else 0.5,
                       detail=detections(*readings))


def one_like(candidates: list[str]) -> tuple[str, str]:
    """A drink that cannot have come out and the one candidate that shares its colour or shape."""
    for drink in DRINK_IDS:
        if drink in candidates:
            continue
        colour, shape = drink.split("-")
        alike = [c for c in candidates if c.startswith(colour + "-") or c.endswith("-" + shape)]
        if len(alike) == 1:
            return drink, alike[0]
    raise AssertionError(f"no drink with exactly one look-alike among {candidates}")


def beams(session, passes_in: int, passes_out: int) -> None:
    session.observe(Observation(source="sensors", kind="beams", passes_in=passes_in, passes_out=passes_out))


def test_the_session_applies_a_reading_the_game_settles_and_logs_both_in_one_record(at_drop, store):
    spec = at_drop.game.chance(at_drop.state)
    candidates = list(spec.candidates)
    wrong, right = one_like(candidates)
    sure = next(c for c in candidates if c != right)
    beams(at_drop, len(spec.thrown), 2)
    result = at_drop.observe(camera([(sure, 0.98, False), (wrong, 0.55, True)]))
    assert result["result"] == "applied" and list(result["move"]["args"]["out"]) == sorted([sure, right])
    records = store.records(at_drop.id)
    obs_rec = next(r for r in reversed(records) if r["type"] == "observation" and r["observation"]["kind"] == "tray")
    # ONE record: the observation keeps what the camera read, the move it became holds the
    # reconciled drinks (docs/log-format.md)
    assert obs_rec["observation"]["appeared"] == sorted([sure, wrong]) and obs_rec["question"] is None
    assert obs_rec["reconciled"]["out"] == sorted([sure, right])
    assert obs_rec["reconciled"]["decisions"][0]["read"] == wrong and obs_rec["reconciled"]["decisions"][0]["as"] == right
    assert obs_rec["move"] == {"kind": "drop", "player": "chance", "args": {"out": sorted([sure, right])}}
    assert obs_rec["by"] == "camera"
    assert all(r["type"] != "move" for r in records[records.index(obs_rec):]), "no second record for the drop"


def test_a_person_is_asked_with_the_likely_answer_and_a_persons_report_is_never_changed(at_drop):
    spec = at_drop.game.chance(at_drop.state)
    wrong, right = one_like(list(spec.candidates))
    # the same reading as the camera's would be settled, but a person's report is only questioned
    result = at_drop.observe(camera([(wrong, 0.55, True)], source="person"))
    q = result["question"]
    assert result["result"] == "question" and q["kind"] == "contradiction"
    assert q["likely"] == [right] and list(q["move"]["args"]["out"]) == [right]
    assert q["observation"]["appeared"] == [wrong]
    assert at_drop.view(None)["question"]["likely"] == [right]


def test_a_count_the_beams_contradict_is_asked_then_needs_the_override(at_drop, store):
    spec = at_drop.game.chance(at_drop.state)
    thrown = list(spec.thrown)
    beams(at_drop, len(thrown), 3)
    assert at_drop.view(None)["chance"]["seen"]          # the drinks went in: no throwing again
    reading = [(d, 0.98, False) for d in thrown[:2]]
    assert "exit beam counted 3" in at_drop.second_look(camera(reading))   # read again before asking
    q = at_drop.observe(camera(reading))["question"]
    assert q["kind"] == "confirm" and "exit beam counted 3" in q["reason"]
    two = Move(spec.move_kind, CHANCE, {"out": sorted(thrown[:2])})
    with pytest.raises(BeamsDisagree, match="override"):
        at_drop.submit(two, None)
    assert at_drop.state.phase == "drop"                  # nothing taken
    at_drop.submit(two, None, override_beams=True)
    last = [r for r in store.records(at_drop.id) if r["type"] == "move" and r["move"]["kind"] == "drop"][-1]
    assert last["override"] == {"beams": [len(thrown), 3]} and last["move"]["args"]["out"] == sorted(thrown[:2])
    assert at_drop.state.phase != "drop"


def test_a_drop_the_beam_agrees_with_needs_no_override(at_drop, store):
    spec = at_drop.game.chance(at_drop.state)
    beams(at_drop, len(spec.thrown), 2)
    at_drop.submit(Move(spec.move_kind, CHANCE, {"out": sorted(spec.thrown[:2])}), None)
    drop = [r for r in store.records(at_drop.id) if r["type"] == "move" and r["move"]["kind"] == "drop"][-1]
    assert "override" not in drop and at_drop.state.phase != "drop"


def test_a_dismissed_drop_question_leaves_the_drop_seen_not_to_be_thrown_again(at_drop):
    assert not at_drop.view(None)["chance"]["seen"]
    at_drop.observe(camera([(at_drop.game.chance(at_drop.state).thrown[0], 0.4, True)], source="person"))
    at_drop.dismiss_question()
    chance = at_drop.view(None)["chance"]
    assert chance["kind"] == "drop" and chance["seen"] and at_drop.view(None)["question"] is None
