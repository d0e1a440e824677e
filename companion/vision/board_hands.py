"""Hands over the TOKYO METRO board (issue 29): whether something larger than any group of
pieces -- an arm, a hand, its shadow -- lies over the board in a frame, so that the reader takes
none of that frame's pieces (:class:`~.board_read.BoardReader`, step 2).

What differs from the empty board is marked on a coarse grid (``COARSE`` mm a cell); a
connected region larger than any group of pieces is a hand wherever it lies (a camera that
sees a raised arm outside the sheet sees only the hand inside it); a long thin one is a hand
only if it comes in over the sheet's rim, as an arm does: a row of pyramids and drinks along a
line in the board's middle can be as long as a hand is wide. Left out of it: the sheet's rim
(its edge against the table changes with a pixel of pose) and the drink places of METRO
DRINKS, where a drink up to 35 mm tall, leaning away from the camera, would join the pyramids
either side of it into a region as wide as a hand. A look whose printed lines differ from the
reference along their whole length (a soft lens, a tube's glare) has that share of each cell's
print contrast forgiven: a hand differs from the print by about its whole contrast, and more.
"""
from __future__ import annotations

import cv2
import numpy as np

from .board_pose import PX_PER_MM

COARSE = 4               # mm per cell of the grid hands are looked for on
HAND_MM2 = 2500.0        # a region of change larger than this (mm^2) is a hand, not pieces
RIM_MM = 8.0             # the sheet's rim left out of the search for hands
HAND_SPAN = 110.0        # ... or one spanning more than this (mm) across, if it reaches the rim
REACH_MM = 8.0           # a region whose cells come this near the rim's inner edge comes in from beyond the sheet
PRINT_MISMATCH = 0.15    # a frame whose print differs from the reference by more than this share of its contrast ...
PRINT_DISCOUNT = 2.0     # ... has that many times its share of each cell's print contrast forgiven in the search for hands
DRINK_HALF_MM = 7.0      # half a drink's width and a little: the band left out of the search for hands


class HandSearch:
    """The search for hands on one board: its empty ``reference`` (float32 BGR sheet at
    PX_PER_MM) and paper colour, kept on the coarse grid once."""

    def __init__(self, reference: np.ndarray, paper: np.ndarray):
        h, w = reference.shape[:2]
        self.scale = float(np.sum(paper))
        self.coarse_ref = cv2.resize(reference, (w // COARSE, h // COARSE), interpolation=cv2.INTER_AREA)
        # per cell the reference's own range of colour (a share of the paper's), and the quarter
        # of the cells with the most print, where the print's mismatch is measured
        k = COARSE
        cells = reference[:h // k * k, :w // k * k].reshape(h // k, k, w // k, k, 3)
        c = (cells.max(axis=(1, 3)) - cells.min(axis=(1, 3))).sum(axis=2) / self.scale
        self.contrast = np.maximum(c, 1e-3)
        self.printed = self.contrast > np.quantile(self.contrast, 0.75)

    def find(self, sheet: np.ndarray, drink_bases: np.ndarray, drink_tops: np.ndarray) -> tuple[bool, np.ndarray]:
        """(hands over the board?, the coarse grid of change) of a sheet in the reference's
        light; ``drink_bases`` / ``drink_tops``: sheet px of each drink place and of the top of
        the tallest drink standing there, seen leaning away from the camera."""
        h, w = sheet.shape[:2]
        small = cv2.resize(sheet, (w // COARSE, h // COARSE), interpolation=cv2.INTER_AREA)
        d = np.abs(small - self.coarse_ref).sum(axis=2) / self.scale
        bar = max(0.12, 4 * float(np.median(d)))
        mismatch = float(np.median(d[self.printed] / self.contrast[self.printed]))
        if mismatch > PRINT_MISMATCH:
            bar = bar + PRINT_DISCOUNT * mismatch * self.contrast
        mask = (d > bar).astype(np.uint8)
        m = max(1, int(round(RIM_MM / COARSE)))
        mask[:m], mask[-m:], mask[:, :m], mask[:, -m:] = 0, 0, 0, 0
        mask[_drink_stands(drink_bases, drink_tops, mask.shape)] = 0
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        if n <= 1:
            return False, mask
        areas = stats[1:, cv2.CC_STAT_AREA] * COARSE * COARSE
        spans = np.maximum(stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]) * COARSE
        # a region's box reaches a side only where one of its own cells does
        near = m + int(round(REACH_MM / COARSE))      # cells from the grid's border
        x0, y0 = stats[1:, cv2.CC_STAT_LEFT], stats[1:, cv2.CC_STAT_TOP]
        x1, y1 = x0 + stats[1:, cv2.CC_STAT_WIDTH], y0 + stats[1:, cv2.CC_STAT_HEIGHT]
        at_rim = (x0 < near) | (y0 < near) | (x1 > mask.shape[1] - near) | (y1 > mask.shape[0] - near)
        hand = (areas > HAND_MM2) | (at_rim & (spans > HAND_SPAN))
        return bool(hand.any()), mask


def _drink_stands(bases: np.ndarray, tops: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """On the coarse grid: where a drink standing at a drink place shows, base to top."""
    out = np.zeros(shape, np.uint8)
    k = PX_PER_MM * COARSE
    for (x0, y0), (x1, y1) in zip(bases / k, tops / k):
        cv2.line(out, (int(round(x0)), int(round(y0))), (int(round(x1)), int(round(y1))), 1,
                 thickness=max(1, int(round(2 * DRINK_HALF_MM / COARSE))))
    return out.astype(bool)
