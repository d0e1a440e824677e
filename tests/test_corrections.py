"""What the host's answers to the camera teach it (table/corrections.py) and the table's look
book (table/looks.py): which reading was which drink, only the camera's readings and only the
table's answer teach, the book's bounds, undo, forgetting, and the file that keeps it.

The session and the store are the real ones; a camera's reading is handed to the session as the
camera's thread hands it (``TableSession.observe``), with a look measured by calibration (the
simulated table's profile keeps each drink's measured features)."""
from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

from companion.observation import Observation
from companion.rules.engine import CHANCE, Move
from companion.sim.table import SIM_TABLE  # the simulated table, wired in as `companion serve` does
from companion.table import corrections
from companion.table.corrections import taught_by
from companion.table.looks import LookBook
from companion.table.session import Forbidden, TableSession
from companion.table.store import EventStore
from companion.vision.profile import Profile
from companion.vision.taught import IN_ALL, PER_DRINK

PROFILE_PATH = Path(__file__).resolve().parents[1] / "calibration" / "sim-profile.json"


@pytest.fixture(scope="module")
def profile() -> Profile:
    return Profile.load(PROFILE_PATH)


def look_of(profile: Profile, drink: str) -> dict:
    """The features calibration measured of ``drink``, as the tray watcher hands a piece's look."""
    rec = profile.drinks[drink]
    return {**{k: rec[k] for k in ("length", "width", "neck", "shoulder", "flat", "edge", "b", "g", "r", "area")},
            "axis": [1.0, 0.0]}


def question(readings: list[tuple[str, dict | None]], source: str = "camera", decisions=()) -> dict:
    dets = [{"id": d, "x": 100.0 * i, "y": 50.0, "confidence": 0.99, "unsure": False, "new": True,
             **({"look": look} if look else {})} for i, (d, look) in enumerate(readings)]
    return {"observation": {"source": source, "kind": "tray", "detail": {"detections": dets}},
            "reconciled": {"decisions": list(decisions)}}


def test_the_module_examples():
    assert doctest.testmod(corrections).failed == 0


def test_which_reading_was_which_drink(profile):
    a, b = look_of(profile, "blue-tall_can"), look_of(profile, "red-short_can")
    # the host kept the game's guess for one reading; the other pair is what is left
    q = question([("blue-tall_can", a), ("red-short_can", b), ("white-stubby_can", a)],
                 decisions=[{"rule": "asked", "read": "blue-tall_can", "as": "purple-tall_can"}])
    taught = taught_by(q, ["purple-tall_can", "mint-short_can", "white-stubby_can"])
    assert [(t["drink"], t["read"]) for t in taught] == [("purple-tall_can", "blue-tall_can"),
                                                         ("mint-short_can", "red-short_can")]
    # two wrong readings and two drinks unaccounted for: either way round, so nothing is taught
    q = question([("blue-tall_can", a), ("red-short_can", b)])
    assert taught_by(q, ["purple-tall_can", "mint-short_can"]) == []
    # a person's account teaches nothing, whatever detections it claims; nor a reading without a look
    assert taught_by(question([("blue-tall_can", a)], source="person"), ["purple-tall_can"]) == []
    assert taught_by(question([("blue-tall_can", None)]), ["purple-tall_can"]) == []
    # a drink that was in the tray before the drop is not this drop's reading
    q = question([("blue-tall_can", a)])
    q["observation"]["detail"]["detections"][0]["new"] = False
    assert taught_by(q, ["purple-tall_can"]) == []
    assert taught_by(None, ["purple-tall_can"]) == [] and taught_by(q, "purple-tall_can") == []


def test_the_book_keeps_its_bounds_and_outlives_a_restart(tmp_path, profile):
    book = LookBook(tmp_path)
    book.use(PROFILE_PATH, profile)
    look = look_of(profile, "purple-tall_can")
    for move in range(PER_DRINK + 2):
        book.teach("g1", move, 10 + move, ["purple-tall_can"], [{"drink": "purple-tall_can", "read": "blue-tall_can",
                                                                 "look": look}])
    assert book.summary()["looks"] == PER_DRINK and [e["move"] for e in book.entries()] == [2, 3, 4]
    drinks = [d for d in profile.drinks if d != "purple-tall_can"]
    for move, drink in enumerate(drinks, start=10):
        book.teach("g2", move, move, [drink], [{"drink": drink, "read": "blue-tall_can", "look": look_of(profile, drink)}])
    assert book.summary()["looks"] == IN_ALL
    # a look too large for any drink (a hand, two drinks) is not kept
    assert book.teach("g3", 0, 1, ["red-tall_can"], [{"drink": "red-tall_can", "read": "blue-tall_can",
                                                       "look": {**look, "area": look["area"] * 10}}]) == 0

    again = LookBook(tmp_path)
    taught = again.use(PROFILE_PATH, profile)
    assert again.entries() == book.entries()
    assert sum(1 for r in taught.drinks.values() for p in r.get("poses", ()) if p.get("taught")) == IN_ALL
    # another profile (another camera, another tray) reads without them
    other = tmp_path / "other-profile.json"
    other.write_bytes(PROFILE_PATH.read_bytes() + b"\n")
    assert LookBook(tmp_path).use(other, profile).drinks == profile.drinks


def test_undo_takes_back_what_a_move_taught_and_the_host_can_forget_all(tmp_path, profile):
    book = LookBook(tmp_path)
    book.use(PROFILE_PATH, profile)
    look = look_of(profile, "purple-tall_can")
    taught = [{"drink": "purple-tall_can", "read": "blue-tall_can", "look": look}]
    book.teach("g1", 3, 20, ["purple-tall_can"], taught)
    book.teach("g1", 7, 40, ["purple-tall_can"], taught)
    book.teach("g2", 7, 40, ["purple-tall_can"], taught)
    book.take_back("g1", 7)                         # an undo left moves 0-6 of g1 in effect
    assert [(e["game"], e["move"]) for e in book.entries()] == [("g1", 3), ("g2", 7)]
    assert book.summary()["corrections"] == 2
    # a start after a crash between an undo and the book's writing: g2's move 7 is not in effect
    book.settle(lambda game: [Move("drop", CHANCE, {"out": []})] * 8 if game == "g2" else None)
    assert [(e["game"], e["move"]) for e in book.entries()] == [("g1", 3)]
    assert book.forget()["looks"] == 0 and LookBook(tmp_path).books[book.profile] == []


def test_a_damaged_book_is_left_as_it_is(tmp_path, profile):
    path = tmp_path / LookBook.FILE_NAME
    path.write_text("{not json", encoding="utf-8")
    book = LookBook(tmp_path)
    book.use(PROFILE_PATH, profile)
    assert "cannot be read" in book.summary()["problem"]
    book.teach("g1", 0, 1, ["purple-tall_can"], [{"drink": "purple-tall_can", "read": "blue-tall_can",
                                                   "look": look_of(profile, "purple-tall_can")}])
    assert book.summary()["looks"] == 1 and path.read_text(encoding="utf-8") == "{not json"


def test_the_session_teaches_on_the_table_answer_only_and_logs_it(tmp_path, profile):
    store = EventStore(tmp_path)
    book = LookBook(tmp_path)
    book.use(PROFILE_PATH, profile)
    session = TableSession.create(store, "pocari_bet", ["Aki", "Ben", "Chie"], bots=[1, 2], seed=5,
                                  automation=SIM_TABLE)
    session.teacher = book
    while not (session.view(None)["chance"] or {}).get("kind") == "drop":
        session.submit(Move.from_json(session.view(0)["moves"][0]["move"]), 0)
    thrown = session.view(None)["chance"]["thrown"]
    free = set(thrown) | set(session.view(None)["chance"]["inside"])
    # a reading of a drink that cannot have come out, which the game cannot settle (not exactly
    # one drink left in the tower shares its colour or shape): a question for the host
    wrong = next(d for d in profile.drinks if d not in free and len(
        [c for c in free if c.split("-")[0] == d.split("-")[0] or c.split("-")[1] == d.split("-")[1]]) != 1)
    reading = Observation(source="camera", kind="tray", appeared=[wrong], confidence=0.45, detail={"detections": [
        {"id": wrong, "x": 300.0, "y": 200.0, "confidence": 0.45, "unsure": True, "new": True,
         "look": look_of(profile, thrown[0])}]})
    assert session.observe(reading)["result"] == "question"
    drop = Move("drop", CHANCE, {"out": [thrown[0]]})
    with pytest.raises(Forbidden):
        session.submit(drop, 0)                      # a phone does not answer for the tower
    assert book.entries() == []
    session.submit(drop, None)
    record = next(r for r in store.records(session.id) if r["type"] == "move" and r["move"]["kind"] == "drop")
    assert [(t["drink"], t["read"]) for t in record["taught"]] == [(thrown[0], wrong)]
    assert [e["drink"] for e in book.entries()] == [thrown[0]]
    json.dumps(record)                                # the log keeps it as JSON
    session.undo()
    assert book.entries() == []
    store.close()
