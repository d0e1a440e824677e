"""Rendered boards for the value-marker network (companion/vision/board_value_net.py): each
line's lane of the revenue track cut from the rectified sheet as the reader sees it, with the
truth (which value space the marker stands on, or none).

    .venv/bin/python tools/board_value_data.py --family varied --seeds 340000 340100

Each look renders its empty board (the reference, rectified as the calibration keeps it; the
place network's looks and cameras: ``board_data._reference``) and then BOARDS boards of sampled
pieces (``board_data.sample_board``: values on nine lanes in ten, pieces and riders round the
track), some bumped with two markers hidden, some under a changed lamp. Of every board and lane
kept: the lane's strip (``board_value_net.strips``, sheet and reference), where each value
space's marker face shows in it (``ValueNet.rows``: the lean of the pose) and the label (the
space's index, or ``NONE`` for an empty lane). Frames with a hand are never rendered here.

One file per look under build/learn_board_values/ (``<family>-<seed>-v<DATA_VERSION>.npz``); a
second run reuses it. Seeds: tools/learn_board_values.py (none of the benchmark, the tests or
the evaluation family).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import board_data  # noqa: E402

from companion.board_layout import BoardLayout  # noqa: E402
from companion.vision import board_read, board_value_net  # noqa: E402

BOARDS = 8
CACHE = ROOT / "build" / "learn_board_values"
DATA_VERSION = 2              # 2: the references' pose refined from the print (board_refine.py)
FAMILIES = board_data.FAMILIES      # never "eval"


def look_data(seed: int, family: str = "dev", boards: int = BOARDS, fresh: bool = False) -> dict | None:
    """The lanes of ``boards`` rendered boards of one look: ``strips`` (n, rows, width, 6)
    float16, ``rows`` (n, spaces) float32, ``y`` (n,) int (None: the empty board not located)."""
    if family not in FAMILIES:
        raise ValueError(f"no training data from the {family!r} family")
    path = CACHE / f"{family}-{seed}-v{DATA_VERSION}.npz"
    if (data := board_data.cached(path, fresh)) is not None:
        return data
    layout = BoardLayout.default()
    rng = np.random.default_rng([seed, 31])
    try:
        renderer, reference, tracker = board_data._reference(seed, family, layout)
    except RuntimeError:
        return None
    reader = board_read.BoardReader(layout, reference, tracker=tracker, model=board_data._placeholder_model())
    cut = board_value_net.LaneStrips(layout)
    letters = list(layout.lanes)
    out = {"strips": [], "rows": [], "y": []}
    for _, pieces, _, pose, sheet in board_data.located_boards(renderer, reader, rng, boards,
                                                                lambda: board_data.sample_board(rng, layout), cycle=4):
        out["strips"].append(cut.strips(sheet, reader.reference, reader.paper).astype(np.float16))
        out["rows"].append(np.repeat(cut.rows(pose)[None], len(letters), axis=0).astype(np.float32))
        out["y"].append(np.array([labels(layout, pieces.values.get(letter)) for letter in letters], np.int16))
    return board_data.saved(path, {k: (np.concatenate(v) if v else np.zeros((0,))) for k, v in out.items()})


def labels(layout: BoardLayout, value: int | None) -> int:
    """A lane's label: the index of its marker's value space, or NONE."""
    if value is None:
        return len(layout.values)
    return int(round(value / layout.value_step))


def collect(seeds, family: str) -> dict[str, np.ndarray]:
    """The lanes of the looks ``seeds`` of ``family`` (rendered now if not cached)."""
    parts = []
    for s in seeds:
        t0 = time.perf_counter()
        d = look_data(s, family)
        if d is None or not len(d["y"]):
            print(f"  look {family} {s}: no reference, left out", file=sys.stderr, flush=True)
            continue
        parts.append(d)
        if time.perf_counter() - t0 > 1.0:
            print(f"  look {family} {s}: {len(d['y'])} lanes ({time.perf_counter() - t0:.1f} s)", file=sys.stderr, flush=True)
    return {k: np.concatenate([p[k] for p in parts]) for k in ("strips", "rows", "y")}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", choices=FAMILIES, default="varied")
    ap.add_argument("--seeds", type=int, nargs=2, metavar=("FIRST", "END"), required=True)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    for s in range(*args.seeds):
        t0 = time.perf_counter()
        d = look_data(s, args.family)
        n = -1 if d is None else len(d["y"])
        print(f"  look {args.family} {s}: {n} lanes ({time.perf_counter() - t0:.1f} s)", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
