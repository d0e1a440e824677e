"""What a person's answer to the camera teaches it: the drinks the host confirmed for a drop the
camera put to them, against the drinks the camera read.

The camera asks about a drop (a question on the table view) when its reading is unsure,
contradicts what the game knows, or disagrees with the exit beam. The host's answer is the drop
move that follows. Where a reading of this drop names another drink than the answer holds, and
which drink it really was is plain, the camera's measure of that piece (its ``look``, which the
tray watcher hands out with each reading) is taught as a look of the drink it really was
(vision/taught.py); the session keeps it with the move in the log, and the table's look book
(table/looks.py) gives it to the camera.

Which reading was which drink: a reading of a drink the answer holds was right (each drink
once); of the others, a reading whose doubt the game settled as a drink the answer holds
(``reconciled``: the host kept the game's guess) was that drink; and when one reading and one
drink are left, the one was the other. Anything less plain teaches nothing: two wrong readings
and two drinks unaccounted for could be either way round, and a wrong look taught is worse than
none.

Only a camera's reading teaches (an account a person entered, with whatever detections it
claims, never does), and only the table's answer: the session calls this for moves of the
table view, which are the host's. Pure: no I/O.

>>> q = {"observation": {"source": "camera", "kind": "tray", "detail": {"detections": [
...     {"id": "blue-tall_can", "new": True, "x": 10.0, "y": 20.0, "look": {"length": 70.0}},
...     {"id": "red-short_can", "new": True, "x": 90.0, "y": 20.0, "look": {"length": 50.0}}]}}}
>>> [(t["drink"], t["read"]) for t in taught_by(q, ["purple-tall_can", "red-short_can"])]
[('purple-tall_can', 'blue-tall_can')]
>>> taught_by(q, ["blue-tall_can", "red-short_can"])
[]
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..drinks import DRINK_IDS


def taught_by(question: Mapping[str, Any] | None, out: Sequence[str]) -> list[dict]:
    """The looks the answer ``out`` (the drinks of the drop move) teaches, given the question it
    answers: ``{"drink", "read", "look", "at"}`` each (``at``: where the piece lay, frame px)."""
    if not isinstance(question, Mapping) or not isinstance(out, (list, tuple)):
        return []
    seen = question.get("observation")
    if not isinstance(seen, Mapping) or seen.get("source") != "camera" or seen.get("kind") != "tray":
        return []
    detail = seen.get("detail") if isinstance(seen.get("detail"), Mapping) else {}
    readings = [d for d in detail.get("detections") or () if isinstance(d, Mapping)
                and d.get("id") in DRINK_IDS and d.get("new", True)]
    left = [d for d in dict.fromkeys(out) if d in DRINK_IDS]
    wrong = []
    for reading in readings:
        if reading["id"] in left:
            left.remove(reading["id"])           # read right
        else:
            wrong.append(reading)
    pairs = []
    guesses = {(c.get("read"), c.get("as")) for c in (question.get("reconciled") or {}).get("decisions") or ()
               if isinstance(c, Mapping)}
    for reading in list(wrong):
        kept = next((d for d in left if (reading["id"], d) in guesses), None)
        if kept is not None:                     # the host kept the game's guess for it
            pairs.append((reading, kept))
            wrong.remove(reading)
            left.remove(kept)
    if len(wrong) == 1 and len(left) == 1:
        pairs.append((wrong[0], left[0]))
    return [{"drink": drink, "read": reading["id"], "look": dict(reading["look"]),
             "at": [reading.get("x"), reading.get("y")]}
            for reading, drink in pairs if isinstance(reading.get("look"), Mapping)]
