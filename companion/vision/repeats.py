"""One drink, one reading: the tower holds each of the 36 drinks once, so two sure readings
of the same drink in one frame mean that one of them is wrong. The less sure one is marked
``unsure`` (a person confirms it) rather than left as a confident guess.
"""
from __future__ import annotations

DOUBTED = 0.3     # the confidence of a reading doubted for naming a drink already read


def doubt_repeats(found: list[dict]) -> list[dict]:
    """Mark every sure reading of a drink that a surer reading also names as unsure, in place;
    returns ``found``. Of equally confident readings, the one further from its drink (the
    colour and shape distances that classify left in ``_f``) is doubted; a reading whose
    outline was fitted has the distances of the piece it replaced, and so is doubted first.

    >>> a = {"color": "blue", "shape": "square_bottle", "x": 144.0, "y": 255.0, "confidence": 0.99, "unsure": False}
    >>> b = {"color": "blue", "shape": "square_bottle", "x": 201.0, "y": 234.0, "confidence": 0.98, "unsure": False}
    >>> c = {"color": "red", "shape": "stubby_can", "x": 83.0, "y": 80.0, "confidence": 1.0, "unsure": False}
    >>> [(d["unsure"], d["confidence"]) for d in doubt_repeats([a, b, c])]
    [(False, 0.99), (True, 0.3), (False, 1.0)]
    >>> b["_why"]
    'read twice: the same drink is read surer at (144, 255)'
    """
    sure = sorted((d for d in found if not d["unsure"]), key=lambda d: (-d["confidence"], _distance(d)))
    first: dict[tuple[str, str], dict] = {}
    for d in sure:
        key = (d["color"], d["shape"])
        if key not in first:
            first[key] = d
            continue
        other = first[key]
        d["unsure"] = True
        d["confidence"] = min(d["confidence"], DOUBTED)
        note = f"read twice: the same drink is read surer at ({other['x']:.0f}, {other['y']:.0f})"
        d["_why"] = f"{d['_why']}; {note}" if d.get("_why") else note
    return found


def _distance(d: dict) -> float:
    f = d.get("_f") or {}
    return float(f.get("_ds", 0.0)) + float(f.get("_dc", 0.0))
