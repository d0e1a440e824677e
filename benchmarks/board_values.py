"""The value markers alone: the learned lanes (companion/vision/board_value_net.py) against the
rules' way (board_values.py) on the same frames (issue 29).

Per look, as benchmarks/board.py does it: the empty board located and rectified as the
reference, then boards of the simulator's pieces (every line's value; drinks at stations as
there), each seen once as it stands and once bumped with two markers hidden; each frame located,
rectified, brought to the reference's light, and its twelve lanes read by both ways (one core).
A lane is "right" when the reading has the board's value there (or no marker where there is
none), "unsure" when it is left to a person, "wrong" when it is read surely otherwise. Far
cheaper than the whole board benchmark (no hands, no hidden runs): two frames per board.
The evaluation family is ONLY SCORED: totals, no seeds or lanes.

Run:   .venv/bin/python benchmarks/board_values.py --family eval --seeds 900400 --looks 8 --boards 4
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from board import reference_of, sample_board  # noqa: E402

from companion.board_layout import BoardLayout  # noqa: E402
from companion.sim.board_looks import BoardLook, Bump  # noqa: E402
from companion.sim.board_render import BoardRenderer  # noqa: E402
from companion.vision.board_read import BoardReader  # noqa: E402
from companion.vision.board_value_net import LearnedLanes, value_model  # noqa: E402
from companion.vision.board_values import ValueLanes  # noqa: E402

WAYS = ("rules", "learned")
VIEWS = ("plain", "bumped")


def run_look(seed: int, family: str, boards: int, layout: BoardLayout, align: bool = True) -> dict:
    renderer = BoardRenderer(layout, BoardLook.from_seed(seed, family))
    rng = np.random.default_rng([seed, 2029])
    drink_rng = np.random.default_rng([seed, 2030])
    ref, tracker = reference_of(renderer, layout, seed)
    res = {w: {"lanes": 0, "wrong": 0, "unsure": 0, "ms": []} for w in WAYS}
    # the learned lanes apart by view: a bumped frame's pose is carried by two markers
    res["views"] = {v: {"lanes": 0, "wrong": 0, "unsure": 0} for v in VIEWS}
    res["frames"] = res["lost"] = 0
    res["misses"] = []
    if ref is None:
        return res
    reader = BoardReader(layout, ref, tracker=tracker)
    ways = {"rules": ValueLanes(layout, reader.reference, reader.paper, reader._probe),
            "learned": LearnedLanes(layout, reader.reference, reader.paper, value_model())}
    for b in range(boards):
        pieces = sample_board(rng, layout, drink_rng)
        pair = tuple(int(m) for m in rng.choice(layout.marker_ids, 2, replace=False))
        for view in VIEWS:
            if view == "plain":
                frame, _ = renderer.render(pieces, rng=rng)
            else:
                frame, _ = renderer.render(pieces, bump=Bump.random(rng, angle=2.0, shift=12.0), hide_markers=pair, rng=rng)
            pose = reader.tracker.locate(frame)
            res["frames"] += 1
            if pose.state == "lost":
                res["lost"] += 1
                continue
            if align and hasattr(reader, "align"):      # as the reader does (board_align.py)
                pose = reader.align.pose(frame, pose)
            sheet = reader.sheet(frame, pose)
            for way, lanes in ways.items():
                t0 = time.perf_counter()
                values, unsure = lanes.read(sheet, pose, reader.model.value_peak)
                res[way]["ms"].append((time.perf_counter() - t0) * 1000.0)
                doubt = {u.partition(":")[2] for u in unsure}
                tallies = (res[way], res["views"][view]) if way == "learned" else (res[way],)
                for letter in layout.lanes:
                    for t in tallies:
                        t["lanes"] += 1
                    if letter in doubt:
                        for t in tallies:
                            t["unsure"] += 1
                    elif values.get(letter) != pieces.values.get(letter):
                        for t in tallies:
                            t["wrong"] += 1
                        if family != "eval":
                            res["misses"].append((way, seed, b, view, letter, pieces.values.get(letter), values.get(letter)))
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", choices=["dev", "eval", "varied"], default="dev")
    ap.add_argument("--seeds", type=int, default=None, help="first seed (dev 1000, eval 900000, varied 330000)")
    ap.add_argument("--looks", type=int, default=8)
    ap.add_argument("--boards", type=int, default=4)
    ap.add_argument("--no-align", action="store_true",
                    help="the tracker's pose alone on frames with fewer than three markers (board_align.py off)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if value_model() is None:
        print("no value model committed (tools/learn_board_values.py)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    layout = BoardLayout.default()
    first = args.seeds if args.seeds is not None else {"dev": 1000, "eval": 900000, "varied": 330000}[args.family]
    total = {w: {"lanes": 0, "wrong": 0, "unsure": 0, "ms": []} for w in WAYS}
    views = {v: {"lanes": 0, "wrong": 0, "unsure": 0} for v in VIEWS}
    frames = lost = 0
    misses = []
    for i, seed in enumerate(range(first, first + args.looks)):
        t0 = time.perf_counter()
        r = run_look(seed, args.family, args.boards, layout, align=not args.no_align)
        frames, lost, misses = frames + r["frames"], lost + r["lost"], misses + r["misses"]
        for w in WAYS:
            for k in ("lanes", "wrong", "unsure"):
                total[w][k] += r[w][k]
            total[w]["ms"] += r[w]["ms"]
        for v in VIEWS:
            for k in ("lanes", "wrong", "unsure"):
                views[v][k] += r["views"][v][k]
        print(f"  {args.family} look {i + 1}/{args.looks} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    out = {"family": args.family, "first_seed": first, "looks": args.looks, "frames": frames, "lost": lost}
    print(f"\n== value markers, {args.family}: {args.looks} looks from seed {first}, {frames} frames ({lost} lost) ==")
    for w in WAYS:
        t = total[w]
        n = max(t["lanes"], 1)
        out[w] = {"lanes": t["lanes"], "sure_wrong_pct": round(100 * t["wrong"] / n, 3),
                  "unsure_pct": round(100 * t["unsure"] / n, 3),
                  "error_pct": round(100 * (t["wrong"] + t["unsure"]) / n, 3),
                  "ms_mean": round(float(np.mean(t["ms"])), 2) if t["ms"] else None}
        print(f"{w:8s} {t['lanes']} lanes: sure and wrong {out[w]['sure_wrong_pct']:.3f} %, unsure "
              f"{out[w]['unsure_pct']:.3f} %, error {out[w]['error_pct']:.3f} %; {out[w]['ms_mean']} ms per frame")
    out["learned_by_view"] = {}
    for v, t in views.items():
        n = max(t["lanes"], 1)
        out["learned_by_view"][v] = {"lanes": t["lanes"], "sure_wrong_pct": round(100 * t["wrong"] / n, 3),
                                     "unsure_pct": round(100 * t["unsure"] / n, 3)}
        print(f"learned, {v} frames: {t['lanes']} lanes: sure and wrong {out['learned_by_view'][v]['sure_wrong_pct']:.3f} %, "
              f"unsure {out['learned_by_view'][v]['unsure_pct']:.3f} %")
    if args.family != "eval":
        for m in misses[:30]:
            print("  miss", m)
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
