"""What a board place model costs a frame (issue 29): the same board frames read whole by the
board reader with each model, by turns, one core, CPU time.

    .venv/bin/python benchmarks/board_frame_speed.py [--seed 1000] [--looks 2] [--boards 3] [--repeats 3]
        [--model SPOTS.json,NET.npz ...]

Development-family looks (benchmarks/board.py's dev seeds by default: 1000 on), each calibrated
on its empty board as that benchmark does, then ``--boards`` boards of pieces and drinks
(board.py's ``sample_board``), one frame each. Every frame is read ``--repeats`` times by a
reader of each model (the same reference and lens; the tracker's pose set by a first read) by
turns, so that other load falls on all alike; the median per frame is kept. Printed per model:
the median and the 90th percentile over the frames, in ms. ``--model``: a place model's settings
and network (board_model.spot_model's two files; default: the committed model alone).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import copy  # noqa: E402
import sys  # noqa: E402
from functools import partial  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import board  # noqa: E402
from by_turns import by_turns  # noqa: E402

from companion.board_layout import BoardLayout  # noqa: E402
from companion.sim.board_looks import BoardLook  # noqa: E402
from companion.sim.board_render import BoardRenderer  # noqa: E402
from companion.vision import board_model  # noqa: E402
from companion.vision.board_read import BoardReader  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1000, help="the first development look")
    ap.add_argument("--looks", type=int, default=2)
    ap.add_argument("--boards", type=int, default=3, help="frames per look")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--model", action="append", help="SPOTS.json,NET.npz (again for more)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    names = args.model or ["committed"]
    models = [board_model.spot_model(*m.split(",")) if m != "committed" else board_model.spot_model()
              for m in names]
    layout = BoardLayout.default()
    times: list[list[float]] = [[] for _ in models]
    for seed in range(args.seed, args.seed + args.looks):
        renderer = BoardRenderer(layout, BoardLook.from_seed(seed, "dev"))
        ref, tracker = board.reference_of(renderer, layout, seed)
        if ref is None:
            continue
        readers = [BoardReader(layout, ref, tracker=copy.deepcopy(tracker), model=m) for m in models]
        rng = np.random.default_rng([seed, 2029])
        drink_rng = np.random.default_rng([seed, 2030])
        for _ in range(args.boards):
            frame, _ = renderer.render(board.sample_board(rng, layout, drink_rng), rng=rng)
            for reader in readers:
                reader.read(frame)                  # the pose followed to this frame before timing
            for m, secs in enumerate(by_turns([partial(reader.read, frame) for reader in readers], args.repeats)):
                times[m].append(float(secs))
    for name, t in zip(names, times):
        print(f"{name}: {len(t)} frames, median {1000 * np.median(t):.1f} ms, p90 {1000 * np.quantile(t, 0.9):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
