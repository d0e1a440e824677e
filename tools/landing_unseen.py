"""Why the landing reader does not see a drink: for each asked drink of some looks (as
benchmarks/landings.py draws them) that the reader reports not seen, what stood in the way.

    PYTHONPATH=$PWD .venv/bin/python tools/landing_unseen.py --family varied --first 20000 --looks 40 [--images DIR] [--loose]

Without ``--loose`` the reader as it was before it looked again in the loose colour mask
(``landing_reading.LOOSE`` off); with it, as it reads now.

For each drink not seen it prints where the drink lies (spot, standing or lying, distance), how
much of its outline on the table (``landing_fit.outline``, as the training labels it) the top
view holds (``in_view``), how much of the drink the camera shows with the other drinks and loose
things there against without them (``visible``: the pixels the drink changes in the lit
picture), the classes its outline's pixels got (its own colour's share first), the patches of
its colour (how many, and the rank of the one on the drink, as the training's labels match
them) and, when such a patch was a candidate, how likely the network thought it the drink. Then
a cause each, the first that holds:

- ``frame refused``: the reader refused the whole frame (a code);
- ``out of view``: less than half its outline in the top view;
- ``hidden``: less than half of it visible with the others there;
- ``colour``: no patch of its colour on it (its pixels read as another class: the table, a
  shadow, the yellow, another plastic);
- ``crowded out``: a patch on it, but not among the ``MAX_CANDIDATES`` biggest;
- ``merged``: its colour's pixels on it, but their patch's middle off the drink (joined with
  something else of the colour);
- ``network: ...``: a candidate on it, read as no drink; its patch covering less than half the
  outline (``part of it its colour``), more than half of it off the drink (``joined with
  more``), or neither (``a clean patch``).

Each look's colours not on the table are asked too (a shape each): how many of those the reader
says it sees (and sure) is counted apart (what looking harder must not raise).

Dev and varied looks only: the eval family is only ever scored (benchmarks/landings.py).
"""
from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from companion.drinks import COLOURS, SHAPES  # noqa: E402
from companion.landing import LandingScene, spot_of  # noqa: E402
from companion.sim.landing_render import LandingRenderer, benchmark_scenes  # noqa: E402
from companion.vision import landing_crops, landing_reading  # noqa: E402
from companion.vision.landing_calibrate import LandingCalibrationError, calibrate_landing  # noqa: E402
from companion.vision.landing_colours import CLASSES  # noqa: E402
from companion.vision.landing_crops import BEHIND_MM, TOP_PX_PER_MM, VIEW_MM, frame_projector, top_view  # noqa: E402
from companion.vision.landing_fit import outline  # noqa: E402
from companion.vision.landings import LandingReader, _usable  # noqa: E402

MATCH_MM = 4.0          # tools/learn_landings.py's: a patch's middle this near the outline is the drink's


def drink_hull(scene, placed, look, camera) -> np.ndarray:
    spot = spot_of(scene, placed)
    lift = 0.0 if spot == "outside" else (look.floor_mm if spot == "slot" else look.rim_mm)
    shape = placed.drink.partition("-")[2]
    return cv2.convexHull(outline(shape, placed.length_mm, placed.width_mm, placed.standing, placed.x, placed.y,
                                  placed.yaw, lift, camera).astype(np.float32))


def to_px(pts_mm: np.ndarray) -> np.ndarray:
    x0, _, _, y1 = VIEW_MM
    s = TOP_PX_PER_MM
    return np.column_stack([(pts_mm[:, 0] - x0) * s - 0.5, (y1 - pts_mm[:, 1]) * s - 0.5])


def visible(renderer: LandingRenderer, scene: LandingScene, loose, name: str) -> float:
    """How much of the drink the lit picture shows with the rest of the scene there, against the
    drink with the crates alone (1: nothing of it hidden by other drinks or loose things)."""
    def changed(others, things):
        with_it = LandingScene(crates=scene.crates, drinks=tuple(others))
        without = LandingScene(crates=scene.crates, drinks=tuple(d for d in others if d.drink != name))
        a = renderer._scene_picture(with_it, things).astype(np.int16)
        b = renderer._scene_picture(without, things).astype(np.int16)
        return int((np.abs(a - b).max(-1) > 12).sum())
    alone = changed([d for d in scene.drinks if d.drink == name], ())
    return changed(scene.drinks, loose) / max(alone, 1)


def diagnose(args) -> list[dict]:
    landing_crops.MAX_CANDIDATES = args.candidates
    rows = []
    for seed, look, frame, scene, loose, photo in benchmark_scenes(args.family, args.first, args.looks):
        try:
            cal = calibrate_landing(photo)
        except LandingCalibrationError:
            for d in scene.drinks:
                rows.append({"seed": seed, "drink": d.drink, "cause": "calibration refused"})
            continue
        reader = LandingReader(cal)
        present = {d.drink.partition("-")[0] for d in scene.drinks}
        absent = tuple(f"{c.value}-{SHAPES[(seed + i) % len(SHAPES)].value}" for i, c in enumerate(COLOURS)
                       if c.value not in present)
        got = reader.read(frame, tuple(d.drink for d in scene.drinks) + absent)
        for a in got.landings[len(scene.drinks):]:
            rows.append({"seed": seed, "drink": a.drink, "absent": True, "seen": a.seen, "sure": a.sure, "cause": None})
            if a.seen:
                print({"seed": seed, "absent drink read seen": a.drink, "spot": a.spot, "sure": a.sure}, flush=True)
        if got.codes:
            for d in scene.drinks:
                rows.append({"seed": seed, "drink": d.drink, "cause": "frame refused", "codes": got.codes})
            continue
        usable = _usable(frame, cal.image_size)
        size = (usable.shape[1], usable.shape[0])
        maps = reader._top_maps(size)
        view = top_view(usable, maps, cal.white_bgr, cal.camera_position, frame_projector(cal, size))
        valid = maps[2] & (view.gy >= BEHIND_MM)
        camera = cal.camera_position
        for placed, landing in zip(scene.drinks, got.landings):
            if landing.seen:
                rows.append({"seed": seed, "drink": placed.drink, "cause": None})
                continue
            colour = placed.drink.partition("-")[0]
            hull = drink_hull(scene, placed, look, camera)
            poly = np.zeros(view.label.shape, np.uint8)
            cv2.fillPoly(poly, [np.round(to_px(hull.reshape(-1, 2))).astype(np.int32)], 1)
            area = max(int(poly.sum()), 1)
            box = np.zeros(view.label.shape, bool)
            in_view = float((poly.astype(bool) & valid).sum()) / area
            # the whole outline, counted also where it leaves the top view
            x0, x1, y0, y1 = VIEW_MM
            pts = hull.reshape(-1, 2)
            out_of_box = bool((pts[:, 0] < x0).any() or (pts[:, 0] > x1).any() or (pts[:, 1] > y1).any())
            box |= poly.astype(bool)
            classes = Counter(CLASSES[k] for k in view.label[box & valid].ravel())
            own = classes.get(colour, 0) / max(sum(classes.values()), 1)
            found, mask = landing_crops.patches(view, colour)
            every, _ = _all_patches(view, colour)
            rank, on_pixels, coverage, purity = None, 0, 0.0, 0.0
            for i, (centre, count, (y, x, sel)) in enumerate(every):
                if cv2.pointPolygonTest(hull, (float(centre[0]), float(centre[1])), True) >= -MATCH_MM and rank is None:
                    rank = i
                    inside = int((box[y:y + sel.shape[0], x:x + sel.shape[1]] & sel).sum())
                    coverage, purity = inside / area, inside / max(count, 1)
            on_pixels = int((mask.astype(bool) & box).sum())
            cands = landing_crops.candidates(view, placed.drink)
            p_drink = None
            if cands:
                p, _, _ = reader.model.read(np.stack([c.crop for c in cands]), np.stack([c.features for c in cands]))
                for i, c in enumerate(cands):
                    if cv2.pointPolygonTest(hull, (float(c.centre[0]), float(c.centre[1])), True) >= -MATCH_MM:
                        p_drink = max(p_drink or 0.0, float(1 - p[i, 3]))
            vis = visible(LandingRenderer(look), scene, loose, placed.drink)
            others = [d for d in scene.drinks if d.drink != placed.drink]
            gap = min((math.hypot(d.x - placed.x, d.y - placed.y) - (max(d.length_mm, d.width_mm)
                                                                       + max(placed.length_mm, placed.width_mm)) / 2
                       for d in others), default=999.0)
            if in_view < 0.5:
                cause = "out of view"
            elif vis < 0.5:
                cause = "hidden"
            elif rank is None and on_pixels < 6:
                cause = "colour"
            elif rank is None:
                cause = "merged"
            elif rank >= args.candidates:
                cause = "crowded out"
            elif p_drink is not None and coverage < 0.5:
                cause = "network: part of it its colour"
            elif p_drink is not None and purity < 0.5:
                cause = "network: its patch joined with more"
            elif p_drink is not None:
                cause = "network: a clean patch"
            else:
                cause = "other"
            row = {"seed": seed, "drink": placed.drink, "cause": cause, "spot": spot_of(scene, placed),
                   "standing": placed.standing, "xy": (round(placed.x), round(placed.y)), "in_view": round(in_view, 2),
                   "leaves_box": out_of_box, "visible": round(vis, 2), "own": round(own, 2),
                   "classes": dict(classes.most_common(3)), "patches": len(every), "rank": rank, "coverage": round(coverage, 2), "purity": round(purity, 2),
                   "on_pixels": on_pixels, "p_drink": None if p_drink is None else round(p_drink, 3),
                   "gap_mm": round(gap), "table": (look.table, look.table_srgb), "plastic": look.drinks.get(colour)}
            rows.append(row)
            print(row, flush=True)
            if args.images:
                _picture(Path(args.images), seed, placed.drink, usable, view, hull)
    return rows


def _all_patches(view, colour):
    keep = landing_crops.MAX_CANDIDATES
    landing_crops.MAX_CANDIDATES = 10 ** 6
    try:
        return landing_crops.patches(view, colour)
    finally:
        landing_crops.MAX_CANDIDATES = keep


def _picture(folder: Path, seed: int, drink: str, frame, view, hull) -> None:
    """The top view around the drink beside its classes (each class a grey), the outline drawn."""
    folder.mkdir(parents=True, exist_ok=True)
    img = view.image[..., :3].copy()
    lab = (view.label.astype(np.float32) * (255 / (len(CLASSES) - 1))).astype(np.uint8)
    lab = cv2.applyColorMap(lab, cv2.COLORMAP_JET)
    pts = np.round(to_px(hull.reshape(-1, 2))).astype(np.int32)
    for im in (img, lab):
        cv2.polylines(im, [pts], True, (255, 255, 255), 1)
    c = pts.mean(0).astype(int)
    r = 90
    y0, x0 = max(0, c[1] - r), max(0, c[0] - r)
    both = np.concatenate([img[y0:c[1] + r, x0:c[0] + r], lab[y0:c[1] + r, x0:c[0] + r]], axis=1)
    cv2.imwrite(str(folder / f"{seed}-{drink}.png"), cv2.resize(both, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST))
    cv2.imwrite(str(folder / f"{seed}-frame.jpg"), frame)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", choices=("dev", "varied"), default="varied")
    ap.add_argument("--first", type=int, default=20000)
    ap.add_argument("--looks", type=int, default=40)
    ap.add_argument("--candidates", type=int, default=landing_crops.MAX_CANDIDATES)
    ap.add_argument("--images", help="a folder for a picture of each drink not seen")
    ap.add_argument("--loose", action="store_true", help="the reader looks again in the loose colour mask (as it does by default)")
    args = ap.parse_args()
    landing_reading.LOOSE = args.loose
    cv2.setNumThreads(1)
    rows = diagnose(args)
    absent = [r for r in rows if r.get("absent")]
    rows = [r for r in rows if not r.get("absent")]
    unseen = [r for r in rows if r["cause"]]
    print(f"{args.family} {args.first}, {args.looks} looks: {len(rows)} drinks, {len(unseen)} not seen; by cause: "
          + ", ".join(f"{k} {v}" for k, v in Counter(r['cause'] for r in unseen).most_common())
          + f"; drinks asked but not there: {len(absent)}, read seen {sum(r['seen'] for r in absent)}, "
            f"sure {sum(r['sure'] for r in absent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
