"""An empty TOKYO METRO board rendered in a development look and located by its markers: what the
board reader's tests start from (one place, so that each test file's fixture says only what it
keeps of it)."""
from __future__ import annotations

import cv2
import numpy as np

from companion.board_layout import BoardLayout
from companion.board_pieces import Pieces
from companion.sim.board_looks import BoardLook
from companion.sim.board_render import BoardRenderer
from companion.vision.board_pose import BoardTracker


def located_empty_board(look_seed: int, refine: bool = False):
    """(layout, renderer, the empty board's frame, its tracker, the pose it locked on): seen whole,
    by all four markers. Tests use looks below 100 (the benchmarks and training tools others)."""
    cv2.setNumThreads(1)
    layout = BoardLayout.default()
    renderer = BoardRenderer(layout, BoardLook.from_seed(look_seed, "dev"))
    empty, _ = renderer.render(Pieces(), rng=np.random.default_rng(1))
    tracker = BoardTracker(layout, refine=refine)
    pose = tracker.locate(empty)
    assert pose.state == "locked" and pose.markers == 4, pose
    return layout, renderer, empty, tracker, pose
