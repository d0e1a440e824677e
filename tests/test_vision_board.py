"""The board camera's reading (issue 29): the board located by its markers (companion/vision/
board_pose.py) and read against its empty look (board_read.py), on frames of the simulated
board camera (companion/sim/board_render.py, a development-family look, seeded)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.board_layout import BoardLayout
from companion.board_pieces import PLAYER_COLOURS, Pieces
from companion.sim.board_camera import SimBoardCamera
from companion.sim.board_looks import BoardHand, BoardLook, Bump
from companion.sim.board_render import BoardRenderer, Placed
from companion.vision.board_pose import BoardTracker, rectify
from companion.vision.board_viewpoint import camera_above
from companion.vision.radial_lens import distort_points, undistort_points
from companion.vision.board_read import BoardReader
from rendered_board import located_empty_board

LOOK_SEED = 11          # tests use looks below 100: the benchmark (1000..) and the training (200000..) others

BOARD = Pieces(
    pyramids={"otemachi": "red", "ginza": "blue", "shinjuku": "yellow", "ueno": "green", "ikebukuro": "purple",
              "shibuya": "red"},
    meeples={"red": "field:130", "blue": "field:57", "yellow": "ride:G", "green": "field:300"},
    trains={"G": 3, "M": 10, "T": 6},
    values={"G": 1400, "M": 600, "T": 2100},
)


@pytest.fixture(scope="module")
def board():
    layout, renderer, empty, tracker, pose = located_empty_board(LOOK_SEED)
    return layout, renderer, rectify(empty, pose, layout), tracker


def reader_for(board, **kw) -> BoardReader:
    layout, _, reference, tracker = board
    return BoardReader(layout, reference, tracker=BoardTracker(layout, distortion=tracker.k), **kw)


def test_a_board_is_read_fully_right(board):
    _, renderer, _, _ = board
    reader = reader_for(board)
    frame, _ = renderer.render(BOARD, rng=np.random.default_rng(2))
    reading = reader.read(frame)
    assert reading.pose == "locked" and reading.markers == 4 and not reading.hands
    assert reading.pieces == BOARD
    assert reading.unsure == [] and reading.problems == []
    assert 0 < reading.ms < 5000


def test_two_markers_hidden_the_board_is_still_read(board):
    _, renderer, _, _ = board
    reader = reader_for(board)
    reader.read(renderer.render(BOARD, rng=np.random.default_rng(3))[0])
    frame, truth = renderer.render(BOARD, hide_markers=(20, 22), rng=np.random.default_rng(4))
    assert not truth["markers"]["20"]["visible"] and not truth["markers"]["22"]["visible"]
    reading = reader.read(frame)
    assert reading.pose == "locked" and reading.markers == 2
    assert reading.pieces == BOARD
    # what covers a marker (a cup, a card) may reach over the sheet's corner, and a carried pose
    # is a little less exact: a place or two may be left to a person, none read wrong
    assert len(reading.unsure) <= 2


def test_a_bumped_board_is_followed(board):
    layout, renderer, _, _ = board
    reader = reader_for(board)
    reader.read(renderer.render(BOARD, rng=np.random.default_rng(5))[0])
    bump = Bump(angle=1.5, dx=9.0, dy=-6.0)
    # bumped while two markers were under a hand's reach: followed from the other two
    frame, _ = renderer.render(BOARD, bump=bump, hide_markers=(21, 23), rng=np.random.default_rng(6))
    reading = reader.read(frame)
    assert reading.pose == "locked" and reading.markers == 2
    pose = reader.tracker.locate(frame)
    pts = np.array([[0.0, 0.0], [967.0, 540.0], [480.0, 270.0]])
    assert np.abs(pose.to_frame(pts) - renderer.board_to_frame(pts, bump)).max() < 3.0
    # as with two markers hidden: a place or two may be left to a person, none read wrong
    assert len(reading.unsure) <= 2
    doubted = {u.partition(":")[2] for u in reading.unsure if u.startswith("station:")}
    assert {s: c for s, c in BOARD.pyramids.items() if s not in doubted} == reading.pieces.pyramids
    assert (reading.pieces.meeples, reading.pieces.trains, reading.pieces.values) == \
        (BOARD.meeples, BOARD.trains, BOARD.values)


def test_a_hand_over_the_board_is_seen_and_nothing_taken(board):
    layout, renderer, _, _ = board
    reader = reader_for(board)
    hand = BoardHand("bottom", 420.0, 260.0, 40.0, (224, 172, 130), (40, 60, 160), 0.5, 8.0)
    frame, truth = renderer.render(BOARD, hand=hand, rng=np.random.default_rng(7))
    assert truth["hand"]
    reading = reader.read(frame)
    assert reading.hands and not reading.usable
    assert reading.pieces == Pieces()


def test_a_piece_of_no_players_colour_is_unsure_and_said(board):
    layout, renderer, _, _ = board
    reader = reader_for(board, players=("red", "blue", "yellow", "green"))
    x, y = layout.meeples[200]
    orange = Placed("meeple", "orange", "field:200", x, y, 0.0, (250, 130, 20))
    frame, _ = renderer.render(BOARD, extra=[orange], rng=np.random.default_rng(8))
    reading = reader.read(frame)
    assert "field:200" in reading.unsure
    assert any("field:200" in p and "no player" in p for p in reading.problems)
    assert "no player" in reading.codes["unknown_colour"]   # the code the table shows it by
    # the purple pyramid: a colour not in play (four players) is unsure and said as well
    assert "station:ikebukuro" in reading.unsure
    assert any("station:ikebukuro" in p for p in reading.problems)
    assert "ikebukuro" not in reading.pieces.pyramids
    assert reading.pieces.pyramids == {k: v for k, v in BOARD.pyramids.items() if v != "purple"}


def test_no_markers_the_pose_is_lost_and_the_problem_said(board):
    layout, renderer, _, _ = board
    reader = reader_for(board)
    frame, _ = renderer.render(BOARD, hide_markers=layout.marker_ids, rng=np.random.default_rng(9))
    reading = reader.read(frame)
    assert reading.pose == "lost" and reading.markers == 0 and not reading.usable
    assert "print-board-markers" in reading.problems[0]
    # markers hidden after a good frame: the last pose is held a little while, then lost
    tracker = BoardTracker(layout, hold_frames=2, distortion=0.0)
    assert tracker.locate(renderer.render(BOARD, rng=np.random.default_rng(10))[0]).state == "locked"
    assert [tracker.locate(frame).state for _ in range(3)] == ["held", "held", "lost"]
    # a frame that is no picture at all
    assert reader.read(np.zeros((4, 4), np.uint8)).pose == "lost"


def test_the_lens_and_the_camera_are_measured():
    """A wide-angle lens bows the sheet's edges: measured from them once; the point under the
    camera comes from the pose (pieces lean away from it)."""
    layout = BoardLayout.default()
    renderer = BoardRenderer(layout, BoardLook.from_seed(12, "dev"))
    frame, _ = renderer.render(Pieces(), rng=np.random.default_rng(1))
    k = 0.09
    h, w = frame.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    src = undistort_points(np.column_stack([xs.ravel(), ys.ravel()]), k, (w, h)).astype(np.float32)
    bowed = cv2.remap(frame, src[:, 0].reshape(h, w), src[:, 1].reshape(h, w), cv2.INTER_LINEAR)
    tracker = BoardTracker(layout)
    pose = tracker.locate(bowed)
    assert abs(tracker.k - k) < 0.01
    pts = np.array([[0.0, 0.0], [967.0, 0.0], [480.0, 270.0], [967.0, 540.0]])
    truth = distort_points(renderer.board_to_frame(pts), k, (w, h))
    assert np.abs(pose.to_frame(pts) - truth).max() < 2.0
    x, y, height = camera_above(BoardTracker(layout).locate(frame))
    assert np.hypot(x - renderer.C[0], y - renderer.C[1]) < 80 and abs(height - abs(renderer.C[2])) < 0.6 * abs(renderer.C[2])


def test_pyramids_of_every_colour_across_the_board_are_read_sure_on_the_simulated_table():
    """The place network's guard: on the simulated table's own look (what the dashboard shows),
    a quarter of the stations across the board -- Iidabashi and Shinjuku among them, where the
    lines' ink runs under the pyramid -- hold pyramids of each player colour in turn, placed as a
    person places them (a mm or two off, a little turned). Every one is read sure and right: a
    network that wins a held-out report by being surer of empty places and less of pieces leaves
    some of these in doubt (the sixth session's asked a purple pyramid at Iidabashi on every
    such board; benchmarks/board_stations.py sweeps every station and colour)."""
    layout = BoardLayout.default()
    cam = SimBoardCamera(seed=0)
    empty = cam.empty_frame()
    tracker = BoardTracker(layout, refine=True)
    reader = BoardReader(layout, rectify(empty, tracker.locate(empty), layout), tracker=tracker)
    stations = list(layout.pyramids)
    group = stations.index("iidabashi") % 4
    doubted = []
    for k in range(len(PLAYER_COLOURS)):
        pyramids = {s: PLAYER_COLOURS[(i + k) % len(PLAYER_COLOURS)] for i, s in enumerate(stations) if i % 4 == group}
        cam.set(Pieces(pyramids=pyramids), hand_frames=0)
        reading = reader.read(cam.read())
        assert reading.pose == "locked"
        doubted += [f"{s}:{c}" for s, c in pyramids.items()
                    if f"station:{s}" in reading.unsure or reading.pieces.pyramids.get(s) != c]
    assert doubted == []
