"""Hands over the board, seen and imagined: the board reader's search for hands
(``BoardReader._hands``, ``vision/board_hands.py``) on rendered boards with and without a simulated hand, with the print's
mismatch forgiven (now) and without (before: ``PRINT_MISMATCH`` infinite).

    .venv/bin/python tools/board_hands_check.py --family varied --seeds 380200 --looks 24 --boards 2
    .venv/bin/python tools/board_hands_check.py --family dev --seeds 2100 --looks 12 --boards 2

Per look: the empty board as the reference (as benchmarks/board.py makes it), then per board
one frame without a hand (a hand seen there is false) and one with the simulator's hand (a
missed one lets a half-changed board be read). Never the evaluation family. Seeds used so far
(docs/performance.md): varied 380100-380115 (the rule chosen), 380200-380223 and 380300-380395
(the rim rule, eleventh board session), dev 2000-2011 and 2100-2111 (checked).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from board import reference_of, sample_board  # noqa: E402

from companion.board_layout import BoardLayout  # noqa: E402
from companion.sim.board_looks import BoardLook  # noqa: E402
from companion.sim.board_render import BoardRenderer  # noqa: E402
from companion.vision import board_hands, board_read  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", choices=["dev", "varied"], default="varied")
    ap.add_argument("--seeds", type=int, required=True, help="the first look's seed")
    ap.add_argument("--looks", type=int, default=12)
    ap.add_argument("--boards", type=int, default=2)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    layout = BoardLayout.default()
    tally = {way: {"hands": 0, "seen": 0, "boards": 0, "false": 0} for way in ("before", "now")}
    bar = board_hands.PRINT_MISMATCH
    for seed in range(args.seeds, args.seeds + args.looks):
        renderer = BoardRenderer(layout, BoardLook.from_seed(seed, args.family))
        rng = np.random.default_rng([seed, 77])
        ref, tracker = reference_of(renderer, layout, seed)
        if ref is None:
            continue
        reader = board_read.BoardReader(layout, ref, tracker=tracker)
        for _ in range(args.boards):
            pieces = sample_board(rng, layout, None)
            for hand in (False, True):
                frame, truth = renderer.render(pieces, hand=hand, rng=rng)
                if hand and not truth["hand"]:
                    continue
                pose = reader.tracker.locate(frame)
                if pose.state == "lost":
                    continue
                sheet = reader.sheet(frame, pose)
                for way in tally:
                    board_hands.PRINT_MISMATCH = math.inf if way == "before" else bar
                    seen = reader._hands(sheet, pose)[0]
                    t = tally[way]
                    t["hands" if hand else "boards"] += 1
                    t["seen" if hand else "false"] += int(seen)
        board_hands.PRINT_MISMATCH = bar
    for way, t in tally.items():
        print(f"{args.family} {args.seeds}+{args.looks} {way}: hands seen {t['seen']} of {t['hands']}; "
              f"boards without a hand taken for hands {t['false']} of {t['boards']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
