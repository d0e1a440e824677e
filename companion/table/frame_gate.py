"""Whether a camera's frame shows anything new since the last frame its reader read (the board,
crate and landing cameras' threads, table/camera_device.py).

A real camera's noise never repeats, so every frame differs from the last bit for bit; but a
board, a table of crates or the table before the tower stands still most of a game, and its
reader costs 50-200 ms of a core a frame (docs/performance.md). At 4 frames a second that is a
quarter to most of a core, all game long, on the machine that also serves the tablets. So a
frame is compared with the last one read, block by block: each ``BLOCK`` x ``BLOCK`` pixel
block's mean colour (OpenCV's area resize: the sensor's noise, averaged over 64 pixels, falls
to an eighth). Where no block moved by more than ``levels`` in any channel, the frame shows
what the last one read showed and its reading is given again. A piece set down, moved or taken
away, a hand, a bumped board or a lamp turned on moves whole blocks by tens of levels; a change
too faint to move any block by ``levels`` is read at the latest ``reread_s`` after the last
reading (and a slow drift of the light adds up against that frame, not the previous one, so it
is read once it has added up).

>>> gate = FrameGate()
>>> frame = np.full((64, 96, 3), 120, np.uint8)
>>> gate.known(frame, None, 0.0) is None                     # nothing read yet
True
>>> gate.remember(frame, None, 0.0, "reading of the empty board")
>>> noisy = np.clip(frame + np.random.default_rng(1).normal(0, 4, frame.shape), 0, 255).astype(np.uint8)
>>> gate.known(noisy, None, 0.5)                              # the same board, the sensor's noise
'reading of the empty board'
>>> piece = frame.copy(); piece[20:34, 40:52] = (40, 40, 200)
>>> gate.known(piece, None, 0.75) is None                     # a red piece set down
True
>>> gate.known(noisy, ("red-short_can",), 0.75) is None       # another question about the same frame
True
>>> gate.known(noisy, None, 2.5) is None                      # read again after reread_s
True
"""
from __future__ import annotations

from typing import Any

import cv2
import numpy as np

BLOCK = 8            # px: the blocks whose mean colours are compared (a 1280x720 frame: 160 x 90)
LEVELS = 10.0        # 8-bit levels a block's mean must move by, in some channel, for the frame to be new
REREAD_S = 2.0       # seconds after which a frame is read even when no block moved


class FrameGate:
    """The last frame a camera's reader read, as block means, with its reading (see the module)."""

    def __init__(self, levels: float = LEVELS, block: int = BLOCK, reread_s: float = REREAD_S):
        self.levels, self.block, self.reread_s = float(levels), int(block), float(reread_s)
        self._blocks: np.ndarray | None = None
        self._asked: Any = None
        self._at = float("-inf")
        self._reading: Any = None
        self._looked: tuple | None = None    # (frame, its blocks) last compared: kept if it is read next

    def blocks(self, image: np.ndarray) -> np.ndarray:
        """The mean colour of each BLOCK x BLOCK block (int16, so that differences are signed)."""
        h, w = image.shape[:2]
        size = (max(1, w // self.block), max(1, h // self.block))
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA).astype(np.int16)

    def known(self, image: np.ndarray, asked: Any, now: float) -> Any:
        """The last reading when ``image`` shows what the frame read last showed (the same
        question ``asked``, within ``reread_s`` of it, no block moved by more than ``levels``);
        else None: the frame is to be read."""
        if self._blocks is None or asked != self._asked or now - self._at >= self.reread_s:
            return None
        blocks = self.blocks(image)
        self._looked = (image, blocks)
        if blocks.shape != self._blocks.shape:
            return None
        moved = int(np.abs(blocks - self._blocks).max()) if blocks.size else 0
        return self._reading if moved <= self.levels else None

    def remember(self, image: np.ndarray, asked: Any, now: float, reading: Any) -> None:
        """``image`` was read now (for ``asked``), giving ``reading``."""
        looked, self._looked = self._looked, None
        blocks = looked[1] if looked is not None and looked[0] is image else self.blocks(image)
        self._blocks, self._asked, self._at, self._reading = blocks, asked, float(now), reading

    def forget(self) -> None:
        """A new reader (a calibration saved anew): the next frame is read."""
        self._blocks, self._reading, self._looked = None, None, None
