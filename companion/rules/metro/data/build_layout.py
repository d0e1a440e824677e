"""Add the board's layout in millimetres (``"layout"``) to a TOKYO METRO board file.

The engine plays on fields, circles and stations; a camera over the physical board needs to
know where each of them lies on the sheet, and where each piece stands: the meeple of a field,
the pyramid of a station, the train of a line at each stop, the line-value marker on the
revenue track, and the riders of a line beside the track. This script places all of them from
the board's grid and circles, and writes them into the board file (``companion/board_layout.py``
reads them; the rules engine does not)::

    .venv/bin/python companion/rules/metro/data/build_layout.py [--board FILE]

The choices, all made here and nowhere else (the printed board differs: a table fits its own
with ``companion calibrate board``):

- a field is 30 mm square; the grid starts 15 mm in from the sheet's top-left corner;
- the revenue track stands right of the grid: one lane per line (train order, G first, 16 mm
  apart), value 0 at the bottom, one space per 100 yen, 6.5 mm apart; above the values, five
  rider places per lane (a meeple riding that line's train stands on one);
- four printed ArUco markers (``DICT_4X4_50``, ids 20-23, 40 mm) lie just outside the sheet's
  corners, top-left, top-right, bottom-right, bottom-left;
- a train stands on its stop's circle; where two lines share a circle, each line's train stands
  6 mm to one side of it; a tram or bus stands on its small stops the same way, and a line with
  two vehicles (OSAKA METRO) uses the same places for both;
- a station's pyramid stands beside its circles, where it is furthest from every train place,
  field centre and other pyramid; a meeple stands in its field's centre, or moved within the
  field away from a circle or pyramid too close to the centre;
- a station's drink (METRO DRINKS: the vending machine built there) stands beside its pyramid,
  placed last (nothing placed before moves for it), as clear as it can be of trains, meeples,
  pyramids, other drinks and the printed lines (the camera reads a drink's colour best on bare
  paper).

Pieces are read by their base; the clearances this script reaches are printed and kept in the
file (``layout.clearance``), so that a change that crowds the board shows.
"""
from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
FIELD_MM = 30.0
MARGIN_MM = 15.0
TRACK_GAP_MM = 25.0
LANE_MM = 16.0
VALUE_PITCH_MM = 6.5
TRACK_STEP, TRACK_TOP = 100, 6000
RIDER_PLACES, RIDER_PITCH_MM = 5, 18.0
MARKER_IDS, MARKER_MM, MARKER_GAP_MM = (20, 21, 22, 23), 40.0, 5.0
SHARED_OFFSET_MM = 6.0
# What a piece needs around its place (mm, base radius): the reader looks at the middle of a base.
MEEPLE_R, PYRAMID_R, TRAIN_R = 7.0, 6.5, 6.0
DRINK_R = 6.0           # a standing drink's base: the widest (the stubby can, 12 mm across)
LINE_HALF_MM = 2.5      # half a printed line's width, and a little


def _round(p):
    return [round(p[0], 1), round(p[1], 1)]


def dist(a, b) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _nearest(points: np.ndarray, others) -> np.ndarray:
    """For each of ``points`` (n, 2), the distance to the nearest of ``others`` (99 for none)."""
    others = np.asarray(list(others), float).reshape(-1, 2)
    if not len(others):
        return np.full(len(points), 99.0)
    return np.sqrt(((points[:, None, :] - others[None, :, :]) ** 2).sum(-1)).min(1)


def _place_pyramids(board, circles, trains, meeples, grid) -> dict:
    """Each station's pyramid beside its circles, as clear as it can be of trains, meeples and the
    pyramids placed before it (stations with most circles first)."""
    ox, oy, grid_w, grid_h = grid
    angles = 2 * np.pi * np.arange(16) / 16
    rings = np.array([(r * math.cos(a), r * math.sin(a)) for r in (9.0, 11.0, 13.0, 15.0) for a in angles])
    ring_r = np.repeat([9.0, 11.0, 13.0, 15.0], 16)
    placed: dict[str, tuple[float, float]] = {}
    for st in sorted(board["stations"], key=lambda s: (-len(s["circles"]), s["id"])):
        cands = np.concatenate([rings + circles[c["id"]][0] for c in st["circles"]])
        radius = np.tile(ring_r, len(st["circles"]))
        inside = ((cands[:, 0] >= ox + 4) & (cands[:, 0] <= ox + grid_w - 4)
                  & (cands[:, 1] >= oy + 4) & (cands[:, 1] <= oy + grid_h - 4))
        score = np.minimum.reduce([_nearest(cands, trains) - TRAIN_R - PYRAMID_R,
                                   _nearest(cands, meeples) - MEEPLE_R - PYRAMID_R,
                                   _nearest(cands, placed.values()) - 2 * PYRAMID_R])
        score = np.minimum(score, 3.0) - 0.02 * radius   # as near its circles as the room allows
        score[~inside] = -1e9
        best = cands[int(np.argmax(score))]
        placed[st["id"]] = (float(best[0]), float(best[1]))
    return placed


def _segment_distance(points: np.ndarray, segments: np.ndarray) -> np.ndarray:
    """For each of ``points`` (n, 2), the distance to the nearest segment ((m, 2, 2): a printed
    line between two stops)."""
    a, b = segments[:, 0][None], segments[:, 1][None]
    ab = b - a
    t = np.clip(((points[:, None] - a) * ab).sum(-1) / np.maximum((ab * ab).sum(-1), 1e-9), 0, 1)
    near = a + t[..., None] * ab
    return np.sqrt(((points[:, None] - near) ** 2).sum(-1)).min(1)


def _place_drinks(board, circles, trains, meeples, pyramids: dict, grid) -> dict:
    """Each station's drink beside its pyramid: clear of trains, meeples, pyramids, drinks placed
    before it and the printed lines, as near its own pyramid as that allows (stations with most
    circles first, as for the pyramids)."""
    ox, oy, grid_w, grid_h = grid
    angles = 2 * np.pi * np.arange(24) / 24
    radii = (13.0, 15.0, 17.0, 19.0, 22.0)
    rings = np.array([(r * math.cos(a), r * math.sin(a)) for r in radii for a in angles])
    segments = np.array([(circles[a][0], circles[b][0]) for line in board["lines"]
                         for a, b in zip(line["stops"], line["stops"][1:])], float)
    placed: dict[str, tuple[float, float]] = {}
    for st in sorted(board["stations"], key=lambda s: (-len(s["circles"]), s["id"])):
        own = np.asarray(pyramids[st["id"]], float)
        cands = np.concatenate([rings + own] + [rings + circles[c["id"]][0] for c in st["circles"]])
        inside = ((cands[:, 0] >= ox + 4) & (cands[:, 0] <= ox + grid_w - 4)
                  & (cands[:, 1] >= oy + 4) & (cands[:, 1] <= oy + grid_h - 4))
        score = np.minimum.reduce([_nearest(cands, trains) - TRAIN_R - DRINK_R,
                                   _nearest(cands, meeples) - MEEPLE_R - DRINK_R,
                                   _nearest(cands, pyramids.values()) - PYRAMID_R - DRINK_R,
                                   _nearest(cands, placed.values()) - 2 * DRINK_R,
                                   _segment_distance(cands, segments) - LINE_HALF_MM - DRINK_R])
        near_own = np.hypot(*(cands - own).T)
        score = np.minimum(score, 3.0) - 0.03 * near_own   # beside its pyramid, unless crowded
        score[~inside] = -1e9
        best = cands[int(np.argmax(score))]
        placed[st["id"]] = (float(best[0]), float(best[1]))
    return placed


def _place_meeples(centres, trains, pyramids) -> list:
    """Each field's meeple place: the centre, unless a train or pyramid is near it."""
    steps = np.array([(dx, dy) for dx in range(-10, 11, 2) for dy in range(-10, 11, 2)], float)
    shift = np.hypot(steps[:, 0], steps[:, 1])
    meeples = []
    for centre in centres:
        cands = steps + centre
        score = np.minimum(_nearest(cands, trains) - TRAIN_R - MEEPLE_R,
                           _nearest(cands, pyramids) - PYRAMID_R - MEEPLE_R)
        score = np.minimum(score, 4.0) - 0.01 * shift   # the centre, unless crowded
        best = cands[int(np.argmax(score))]
        meeples.append((float(best[0]), float(best[1])))
    return meeples


def build_layout(board: dict) -> dict:
    cols, rows = board["grid"]["cols"], board["grid"]["rows"]
    ox = oy = MARGIN_MM
    grid_w, grid_h = cols * FIELD_MM, rows * FIELD_MM

    def mm(x: float, y: float) -> tuple[float, float]:
        return ox + x * FIELD_MM, oy + y * FIELD_MM

    circles = {c["id"]: (mm(c["x"], c["y"]), s["id"]) for s in board["stations"] for c in s["circles"]}
    # OSAKA METRO's small stops (no station, so no pyramid): a tram or bus stands on them like a train.
    circles.update({c["id"]: (mm(c["x"], c["y"]), None) for c in board.get("small_stops", [])})
    lines_at: dict[str, list[str]] = {}
    for line in board["lines"]:
        for cid in line["stops"]:
            lines_at.setdefault(cid, []).append(line["letter"])

    # Trains: on the circle, or to one side of it where lines share it.
    stops: dict[str, list[list[float]]] = {}
    train_places: list[tuple[float, float]] = []
    for line in board["lines"]:
        places = []
        for cid in line["stops"]:
            (cx, cy), _ = circles[cid]
            sharing = lines_at[cid]
            if len(sharing) > 1:
                k = sharing.index(line["letter"])
                a = math.pi / 4 + 2 * math.pi * k / len(sharing)
                cx, cy = cx + SHARED_OFFSET_MM * math.cos(a), cy + SHARED_OFFSET_MM * math.sin(a)
            places.append(_round((cx, cy)))
            train_places.append((cx, cy))
        stops[line["letter"]] = places

    field_centres = [mm(c + 0.5, r + 0.5) for r in range(rows) for c in range(cols)]

    # Pyramids beside their circles, then meeples in their fields; twice, so that each sees
    # where the other ended up.
    meeples = field_centres
    for _ in range(2):
        placed = _place_pyramids(board, circles, train_places, meeples, (ox, oy, grid_w, grid_h))
        meeples = _place_meeples(field_centres, train_places, list(placed.values()))
    pyramids = {sid: _round(p) for sid, p in placed.items()}
    drinks = _place_drinks(board, circles, train_places, meeples,
                           {k: tuple(v) for k, v in pyramids.items()}, (ox, oy, grid_w, grid_h))
    placed = list(placed.values())
    meeples = [_round(m) for m in meeples]

    # The revenue track, right of the grid.
    track_x0 = ox + grid_w + TRACK_GAP_MM
    bottom = oy + grid_h - 6.0
    values = [round(bottom - i * VALUE_PITCH_MM, 1) for i in range(TRACK_TOP // TRACK_STEP + 1)]
    lanes = {line["letter"]: round(track_x0 + (i + 0.5) * LANE_MM, 1) for i, line in enumerate(board["lines"])}
    rider_top = oy + 8.0
    riders = [round(rider_top + i * RIDER_PITCH_MM, 1) for i in range(RIDER_PLACES)]
    if riders[-1] + RIDER_PITCH_MM / 2 > values[-1] - 4:
        raise SystemExit("the rider places run into the top of the value track")
    sheet = (round(track_x0 + len(board["lines"]) * LANE_MM + MARGIN_MM, 1), round(oy + grid_h + MARGIN_MM, 1))
    g = MARKER_GAP_MM
    marker_at = [(-g - MARKER_MM, -g - MARKER_MM), (sheet[0] + g, -g - MARKER_MM),
                 (sheet[0] + g, sheet[1] + g), (-g - MARKER_MM, sheet[1] + g)]

    clearance = {
        "pyramid": round(min(min(dist(p, t) for t in train_places) - TRAIN_R - PYRAMID_R for p in placed), 1),
        "meeple": round(min(min(min(dist(m, t) for t in train_places) - TRAIN_R - MEEPLE_R,
                                min(dist(m, q) for q in placed) - PYRAMID_R - MEEPLE_R) for m in meeples), 1),
        "drink": round(min(min(min(dist(d, t) for t in train_places) - TRAIN_R - DRINK_R,
                               min(dist(d, m) for m in meeples) - MEEPLE_R - DRINK_R,
                               min(dist(d, q) for q in placed) - PYRAMID_R - DRINK_R)
                           for d in drinks.values()), 1),
    }
    return {
        "units": "mm",
        "sheet": list(sheet),
        "grid": {"x": ox, "y": oy, "field": FIELD_MM},
        "markers": {"dictionary": "DICT_4X4_50", "size": MARKER_MM,
                    "ids": list(MARKER_IDS), "at": [_round(p) for p in marker_at]},
        "pieces": {"meeple": MEEPLE_R, "pyramid": PYRAMID_R, "train": TRAIN_R, "drink": DRINK_R},
        "meeples": meeples,
        "pyramids": pyramids,
        "drinks": {sid: _round(p) for sid, p in drinks.items()},
        "stops": stops,
        "track": {"step": TRACK_STEP, "top": TRACK_TOP, "lanes": lanes, "values": values, "riders": riders,
                  "lane_width": LANE_MM},
        "clearance": clearance,
    }


def add_layout(path: Path) -> dict:
    board = json.loads(path.read_text(encoding="utf-8"))
    board["layout"] = build_layout(board)
    path.write_text(json.dumps(board, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return board["layout"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", type=Path, default=HERE / "tokyo_board.json")
    args = parser.parse_args()
    layout = add_layout(args.board)
    print(f"layout written to {args.board}: sheet {layout['sheet'][0]} x {layout['sheet'][1]} mm; "
          f"clearance beyond the bases: pyramids {layout['clearance']['pyramid']} mm, "
          f"meeples {layout['clearance']['meeple']} mm, drinks {layout['clearance']['drink']} mm")


if __name__ == "__main__":
    main()
