"""Photos of an empty TOKYO METRO board, drawn here with OpenCV for the calibration tests: the
sheet, its lines and station circles where a "printed" board has them (our data moved by a
known smooth warp), the four corner markers laid at the corners, all seen through a known
homography (a camera above the table at a slant)."""
from __future__ import annotations

import cv2
import numpy as np

from companion.board_layout import BoardLayout

DRAW_PX_PER_MM = 2.0
MARGIN_MM = 60.0          # around the sheet, for the markers


def printed_warp(bow: float = 1.0):
    """Data mm -> printed mm: a larger, slightly turned and shifted board with a gentle bow (up
    to ~20 mm from our data in all, ~4 mm of it not affine; ``bow=0``: affine alone)."""
    c, s = np.cos(np.radians(0.8)), np.sin(np.radians(0.8))

    def move(p: np.ndarray) -> np.ndarray:
        p = np.asarray(p, np.float64).reshape(-1, 2)
        x, y = p[:, 0] - 483.5, p[:, 1] - 270.0
        ax = 1.02 * (c * x - s * y) + 483.5 + 10.0
        ay = 1.015 * (s * x + c * y) + 270.0 - 7.0
        bow_y = bow * 4.0 * (x / 483.5) ** 2            # the print bows down toward its ends
        bow_x = bow * 2.5 * np.sin(np.pi * y / 540.0) * (x / 483.5)
        return np.c_[ax + bow_x, ay + bow_y]
    return move


def camera_homography(size=(1600, 1000)) -> np.ndarray:
    """Board mm -> photo px: the sheet (with its markers) fills most of the frame, at a slant."""
    layout = BoardLayout.default()
    W, H = layout.sheet
    m = 50.0
    src = np.float32([[-m, -m], [W + m, -m], [W + m, H + m], [-m, H + m]])
    w, h = size
    dst = np.float32([[60, 90], [w - 40, 50], [w - 90, h - 60], [110, h - 40]])
    return cv2.getPerspectiveTransform(src, dst)


def draw_board(layout: BoardLayout, move=None, markers: bool = True,
               circles: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The board from above, stations moved by ``move``: (image, board mm -> image px);
    ``circles=False``: a print that marks its stations with no circle (the lines alone)."""
    move = move or (lambda p: np.asarray(p, np.float64).reshape(-1, 2))
    k = DRAW_PX_PER_MM
    W, H = layout.sheet
    size = (int((W + 2 * MARGIN_MM) * k), int((H + 2 * MARGIN_MM) * k))
    img = np.full((size[1], size[0], 3), (70, 80, 90), np.uint8)          # the table

    def px(p):
        q = (np.asarray(p, np.float64).reshape(-1, 2) + MARGIN_MM) * k
        return np.round(q).astype(np.int32)

    cv2.rectangle(img, tuple(px((0, 0))[0]), tuple(px((W, H))[0]), (222, 232, 238), -1)
    for line in layout.lines:
        colour = tuple(int(line.colour[i:i + 2], 16) for i in (5, 3, 1))   # #RRGGBB -> BGR
        pts = px(move(np.array(line.circles)))
        cv2.polylines(img, [pts], False, colour, int(4 * k), cv2.LINE_AA)
    for station in layout.stations if circles else ():
        for c in px(move(np.array(station.circles))):
            cv2.circle(img, tuple(c), int(5.5 * k), (255, 255, 255), -1, cv2.LINE_AA)
            cv2.circle(img, tuple(c), int(5.5 * k), (30, 30, 30), max(1, int(0.8 * k)), cv2.LINE_AA)
    if markers:
        d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        for mid, corners in layout.marker_corners().items():
            tl = px(corners[0])[0]
            side = int(round(layout.marker_size * k))
            q = int(5 * k)
            cv2.rectangle(img, (tl[0] - q, tl[1] - q), (tl[0] + side + q, tl[1] + side + q), (255, 255, 255), -1)
            img[tl[1]:tl[1] + side, tl[0]:tl[0] + side] = cv2.aruco.generateImageMarker(d, mid, side)[..., None]
    to_img = np.array([[k, 0, MARGIN_MM * k], [0, k, MARGIN_MM * k], [0, 0, 1]])
    return img, to_img


def board_photo(layout: BoardLayout, move=None, markers: bool = True, size=(1600, 1000),
                seed: int = 0, circles: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """A photo of the empty board: (BGR image, board mm -> photo px)."""
    img, to_img = draw_board(layout, move, markers, circles)
    H = camera_homography(size)
    photo = cv2.warpPerspective(img, H @ np.linalg.inv(to_img), size, flags=cv2.INTER_AREA,
                                borderValue=(70, 80, 90))
    rng = np.random.default_rng(seed)
    noisy = photo.astype(np.float32) + rng.normal(0, 3.0, photo.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8), H


def to_photo(H: np.ndarray, points) -> np.ndarray:
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, H).reshape(-1, 2)
