"""How far off the board camera's pose puts the board (issue 29): per look, the empty board is
located as a calibration does (``BoardTracker``, the lens measured on it; ``--refine``: the pose
corrected from the print, companion/vision/board_refine.py) and the pose compared with the
simulator's truth -- where the revenue track's value spaces (every sixth, every lane) and a
20 x 12 grid over the whole sheet really lie in the frame, in board mm.

Development and held-out "varied" looks only (the evaluation family is scored by
benchmarks/board.py and board_values.py, never looked at per look). Prints one line per look
and the totals.

``--bumped N``: besides, N boards of pieces per look, each bumped with two markers hidden (the
pose carried by the two in view, ``BoardTracker._carried``): how far off the track lies in
those frames with the tracker's pose and with it corrected from the print
(companion/vision/board_align.py, what the reader does on such frames).

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
from companion.sim.board_dataset import sample_board  # noqa: E402
from companion.sim.board_looks import BoardLook, Bump  # noqa: E402
from companion.sim.board_render import BoardRenderer  # noqa: E402
from companion.vision.board_pose import BoardTracker, rectify  # noqa: E402


def off_mm(renderer: BoardRenderer, pose, pts: np.ndarray, bump: Bump | None = None) -> np.ndarray:
    """Per point: how far (board mm) the pose puts it from where the frame shows it."""
    true_px = renderer.board_to_frame(pts, bump)
    mm_per_px = 1.0 / np.hypot(*(renderer.board_to_frame(pts + [1.0, 0.0], bump) - true_px).T)
    return np.hypot(*(pose.to_frame(pts) - true_px).T) * mm_per_px


def bumped_offs(renderer: BoardRenderer, layout: BoardLayout, tracker: BoardTracker, empty: np.ndarray,
                seed: int, boards: int, track: np.ndarray) -> list[tuple[float, float, bool]]:
    """Per bumped board with two markers hidden: the track's mean miss (mm) with the tracker's
    pose and with the pose the print corrects (board_align), and whether a correction was taken."""
    try:
        from companion.vision.board_align import FrameAlign
    except ImportError:
        FrameAlign = None
    pose0 = tracker.locate(empty)
    align = FrameAlign(layout, rectify(empty, pose0, layout)) if FrameAlign else None
    rng = np.random.default_rng([seed, 77])
    out = []
    for _ in range(boards):
        pieces = sample_board(rng, layout)
        pair = tuple(int(m) for m in rng.choice(layout.marker_ids, 2, replace=False))
        bump = Bump.random(rng, angle=2.0, shift=12.0)
        frame, _ = renderer.render(pieces, bump=bump, hide_markers=pair, rng=rng)
        pose = tracker.locate(frame)
        fixed = align.pose(frame, pose) if align and pose.H is not None else pose
        tracker.locate(empty)            # the board put back (the last pose the markers' again)
        if pose.H is None:
            continue
        out.append((float(off_mm(renderer, pose, track, bump).mean()), float(off_mm(renderer, fixed, track, bump).mean()),
                    fixed is not pose))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", choices=["dev", "varied"], default="dev")
    ap.add_argument("--seeds", type=int, default=None, help="first look (dev 1000, varied 380000)")
    ap.add_argument("--looks", type=int, default=8)
    ap.add_argument("--refine", action="store_true", help="the pose corrected from the print")
    ap.add_argument("--bumped", type=int, default=0, metavar="N",
                    help="also N boards per look bumped with two markers hidden (the carried pose, then corrected)")
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
    rows, bumped = [], []
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
        if args.bumped:
            got = bumped_offs(renderer, layout, tracker, empty, seed, args.bumped, track)
            bumped += got
            print("   bumped, two markers hidden: track mean " + ", ".join(
                f"{a:.2f} -> {b:.2f}{'' if t else ' (kept)'}" for a, b, t in got), flush=True)
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
    if bumped:
        a, b = np.array([x[0] for x in bumped]), np.array([x[1] for x in bumped])
        out["bumped"] = {"frames": len(bumped), "corrected": int(sum(x[2] for x in bumped)),
                         "track_mean_mm": [round(float(a.mean()), 3), round(float(b.mean()), 3)],
                         "track_median_mm": [round(float(np.median(a)), 3), round(float(np.median(b)), 3)],
                         "track_worst_mm": [round(float(a.max()), 2), round(float(b.max()), 2)],
                         "frames_over_1_5mm": [int((a > 1.5).sum()), int((b > 1.5).sum())],
                         "worse_by_0_3mm": int((b > a + 0.3).sum())}
        print(f"== bumped, two markers hidden ({len(bumped)} frames, {out['bumped']['corrected']} corrected), "
              f"carried -> corrected from the print: track mean {out['bumped']['track_mean_mm']}, median "
              f"{out['bumped']['track_median_mm']}, worst {out['bumped']['track_worst_mm']}, frames over 1.5 mm "
              f"{out['bumped']['frames_over_1_5mm']}, frames worse by 0.3 mm {out['bumped']['worse_by_0_3mm']}")
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
