"""A frame held by two markers has its pose checked against the empty board's print
(companion/vision/board_align.py): a bumped board's track is put back where the frame shows
it, a frame with three or four markers is left as the tracker found it, and a sheet that is not
this board's print corrects nothing."""
from __future__ import annotations

import numpy as np
import pytest

from companion.board_layout import BoardLayout
from companion.board_pieces import Pieces
from companion.sim.board_looks import Bump
from companion.vision.board_align import FrameAlign, track_box
from companion.vision.board_pose import rectify
from companion.vision.board_read import BoardReader
from rendered_board import located_empty_board

LOOK_SEED = 13          # tests use looks below 100 (the training tools and the benchmark others)
PIECES = Pieces(pyramids={"otemachi": "red", "ginza": "blue"}, meeples={"blue": "ride:H"}, trains={"G": 3},
                values={"A": 1200, "H": 300})


@pytest.fixture(scope="module")
def board():
    layout, renderer, empty, tracker, pose = located_empty_board(LOOK_SEED, refine=True)
    return layout, renderer, empty, tracker, rectify(empty, pose, layout)


def _track_off_mm(renderer, layout, pose, bump) -> float:
    """How far (mm, on the mean) the pose puts the revenue track from where the frame shows it."""
    pts = np.array([(x, layout.lane_y(v)) for x in layout.lanes.values() for v in layout.values[::6]])
    true_px = renderer.board_to_frame(pts, bump)
    mm_per_px = 1.0 / np.hypot(*(renderer.board_to_frame(pts + [1.0, 0.0], bump) - true_px).T)
    return float((np.hypot(*(pose.to_frame(pts) - true_px).T) * mm_per_px).mean())


@pytest.mark.parametrize("seed", [0, 2])
def test_a_bumped_board_held_by_two_markers_is_put_back_from_its_print(board, seed):
    layout, renderer, empty, tracker, reference = board
    align = FrameAlign(layout, reference)
    rng = np.random.default_rng(seed)
    bump = Bump.random(rng, angle=2.0, shift=12.0)
    frame, _ = renderer.render(PIECES, bump=bump, hide_markers=(22, 23), rng=rng)
    carried = tracker.locate(frame)
    tracker.locate(empty)                                  # the board back, for the next case
    assert carried.state == "locked" and carried.markers == 2
    aligned = align.pose(frame, carried)
    before, after = _track_off_mm(renderer, layout, carried, bump), _track_off_mm(renderer, layout, aligned, bump)
    assert align.last[3], align.last                        # a correction was taken ...
    assert before > 0.6 and after < 0.6 and after < before - 0.3, (before, after)   # ... and it put the track back


def test_a_frame_with_all_markers_is_left_as_the_tracker_found_it(board):
    layout, renderer, empty, tracker, reference = board
    align = FrameAlign(layout, reference)
    pose = tracker.locate(renderer.render(PIECES, rng=np.random.default_rng(3))[0])
    assert pose.markers == 4 and align.pose(empty, pose) is pose


def test_a_sheet_without_this_boards_print_corrects_nothing(board):
    layout, renderer, empty, tracker, reference = board
    align = FrameAlign(layout, reference)
    rng = np.random.default_rng(0)
    frame, _ = renderer.render(PIECES, bump=Bump.random(rng, angle=2.0, shift=12.0), hide_markers=(22, 23), rng=rng)
    pose = tracker.locate(frame)
    tracker.locate(empty)
    blank = np.full_like(frame, 200)
    blank[::40] = 90                                       # lines that are not the board's print
    assert align.correction(blank, pose) is None and not align.last[3]


def test_the_reader_reads_a_bumped_frame_with_the_corrected_pose(board):
    layout, renderer, empty, tracker, reference = board
    reader = BoardReader(layout, reference, tracker=tracker)
    rng = np.random.default_rng(0)
    bump = Bump.random(rng, angle=2.0, shift=12.0)
    frame, _ = renderer.render(PIECES, bump=bump, hide_markers=(22, 23), rng=rng)
    reading = reader.read(frame)
    tracker.locate(empty)
    assert reading.pose == "locked" and reading.markers == 2
    assert _track_off_mm(renderer, layout, reader.last_pose, bump) < 0.6
    assert reading.pieces.values == PIECES.values


def test_the_track_band_holds_every_lane_and_value_space():
    layout = BoardLayout.default()
    x0, y0, x1, y1 = track_box(layout)
    xs, ys = list(layout.lanes.values()), list(layout.values) + list(layout.riders)
    assert x0 < min(xs) - layout.lane_width / 2 and x1 > max(xs) + layout.lane_width / 2
    assert y0 < min(ys) and y1 > max(ys) and 0 <= x0 and x1 <= layout.sheet[0] and 0 <= y0 and y1 <= layout.sheet[1]


def test_a_still_board_keeps_its_aligned_pose_and_a_knock_fits_again(board):
    layout, renderer, empty, tracker, reference = board
    align = FrameAlign(layout, reference)
    rng = np.random.default_rng(5)
    bump = Bump.random(rng, angle=2.0, shift=12.0)
    frame, _ = renderer.render(PIECES, bump=bump, hide_markers=(22, 23), rng=rng)
    first = align.pose(frame, tracker.locate(frame))
    assert align.reused == 0 and align.last[3]
    # every marker hidden, the board still: the held pose is the first frame's, and so is the answer
    frame, _ = renderer.render(PIECES, bump=bump, hide_markers=layout.marker_ids, rng=rng)
    still = align.pose(frame, tracker.locate(frame))
    assert align.reused == 1 and np.allclose(still.H, first.H)
    assert _track_off_mm(renderer, layout, still, bump) < 0.6
    # knocked while hidden: the last pose no longer agrees with the print, so it is fitted again
    knock = Bump(bump.angle + 1.0, bump.dx + 4.0, bump.dy - 3.0)
    frame, _ = renderer.render(PIECES, bump=knock, hide_markers=layout.marker_ids, rng=rng)
    moved = align.pose(frame, tracker.locate(frame))
    tracker.locate(empty)
    assert align.reused == 1
    assert _track_off_mm(renderer, layout, moved, knock) < 0.6
