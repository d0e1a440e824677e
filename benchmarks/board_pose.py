"""How far off the board camera's pose puts the board (issue 29): per look, the empty board is
located as a calibration does (``BoardTracker``, the lens measured on it; ``--refine``: the pose
corrected from the print, companion/vision/board_refine.py) and the pose compared with the
simulator's truth -- where the revenue track's value spaces (every sixth, every lane) and a
20 x 12 grid over the whole sheet really lie in the frame, in board mm.

Development and held-out "varied" looks only (the evaluation family is scored by
benchmarks/board.py and board_values.py, never looked at per look). Prints one line per look
and the totals.

Run:   .venv/bin/python benchmarks/board_pose.py --family varied --seeds 380000 --looks 40 --refine
       .venv/bin/python benchmarks/board_pose.py --family dev --seeds 1000 --looks 8
(another checkout's reader: PYTHONPATH=/that/checkout, which goes before this one's)
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import inspect  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.append(str(Path(__file__).resolve().parents[1]))   # after PYTHONPATH: another checkout may go first

from companion.board_layout import BoardLayout  # noqa: E402
from companion.board_pieces import Pieces  # noqa: E402
from companion.sim.board_looks import BoardLook  # noqa: E402
from companion.sim.board_render import BoardRenderer  # noqa: E402
from companion.vision.board_pose import BoardTracker  # noqa: E402


def off_mm(renderer: BoardRenderer, pose, pts: np.ndarray) -> np.ndarray:
    """Per point: how far (board mm) the pose puts it from where the frame shows it."""
    true_px = renderer.board_to_frame(pts)
    mm_per_px = 1.0 / np.hypot(*(renderer.board_to_frame(pts + [1.0, 0.0]) - true_px).T)
    return np.hypot(*(pose.to_frame(pts) - true_px).T) * mm_per_px


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", choices=["dev", "varied"], default="dev")
    ap.add_argument("--seeds", type=int, default=None, help="first look (dev 1000, varied 380000)")
    ap.add_argument("--looks", type=int, default=8)
    ap.add_argument("--refine", action="store_true", help="the pose corrected from the print")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    first = args.seeds if args.seeds is not None else {"dev": 1000, "varied": 380000}[args.family]
    layout = BoardLayout.default()
    track = np.array([(x, layout.lane_y(v)) for x in layout.lanes.values() for v in layout.values[::6]])
    gx, gy = np.meshgrid(np.linspace(20, layout.sheet[0] - 20, 20), np.linspace(20, layout.sheet[1] - 20, 12))
    grid = np.c_[gx.ravel(), gy.ravel()]
    kw = {"refine": True} if args.refine else {}
    if args.refine and "refine" not in inspect.signature(BoardTracker).parameters:
        print("this checkout's tracker has no refinement", file=sys.stderr)
        return 2
    rows = []
    for seed in range(first, first + args.looks):
        look = BoardLook.from_seed(seed, args.family)
        renderer = BoardRenderer(layout, look)
        empty, _ = renderer.render(Pieces(), rng=np.random.default_rng([seed, 1]))
        tracker = BoardTracker(layout, **kw)
        pose = tracker.locate(empty)
        if pose.H is None:
            print(f"{seed}: board not found")
            continue
        t, g = off_mm(renderer, pose, track), off_mm(renderer, pose, grid)
        rows.append({"seed": seed, "markers": pose.markers, "k_true": round(look.distortion, 4), "k": pose.k,
                     "track_mean": float(t.mean()), "track_max": float(t.max()), "sheet_max": float(g.max())})
        r = rows[-1]
        print(f"{seed} {look.image_size[0]}x{look.image_size[1]} markers {r['markers']} lens {r['k_true']:.3f} "
              f"(taken {r['k']:.3f}): track {r['track_mean']:.2f} mm mean, {r['track_max']:.2f} max; "
              f"sheet {r['sheet_max']:.2f} max", flush=True)
    tm = np.array([r["track_mean"] for r in rows])
    tx = np.array([r["track_max"] for r in rows])
    sx = np.array([r["sheet_max"] for r in rows])
    out = {"family": args.family, "first_seed": first, "looks": len(rows), "refine": args.refine,
           "track_mean_mm": round(float(tm.mean()), 3), "track_median_mm": round(float(np.median(tm)), 3),
           "track_worst_mm": round(float(tx.max()), 2), "looks_track_over_1_5mm": int((tx > 1.5).sum()),
           "sheet_worst_mean_mm": round(float(sx.mean()), 2), "sheet_worst_mm": round(float(sx.max()), 2)}
    print(f"== {args.family} {first}-{first + args.looks - 1}: track {out['track_mean_mm']} mm mean "
          f"(median {out['track_median_mm']}, worst {out['track_worst_mm']}, {out['looks_track_over_1_5mm']} looks "
          f"over 1.5 mm); the sheet's worst point per look {out['sheet_worst_mean_mm']} mm on the mean, "
          f"{out['sheet_worst_mm']} at worst")
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
