"""A calibration photo read from what a host sends: encoded bytes, a file, or an array.

Both calibrations (the board's, vision/board_calibrate.py; the crates', vision/crate_calibrate.py)
take a photo the same way; a photo that cannot be taken is refused in words that say what to send
(:class:`PhotoRefused`, which each calibration turns into its own error).

>>> import numpy as np
>>> decode_photo(np.zeros((80, 100), np.uint8), "the empty board").shape
(80, 100, 3)
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

MAX_PHOTO_BYTES = 25_000_000
MAX_PHOTO_SIDE = 10_000
MIN_PHOTO_SIDE = 64


class PhotoRefused(ValueError):
    """A photo that cannot be taken; the message says why and what to send."""


def decode_photo(source: bytes | str | Path | np.ndarray, subject: str, max_side: int = MAX_PHOTO_SIDE) -> np.ndarray:
    """A colour image (BGR) from encoded bytes, a file or an array; ``subject`` names what the
    photo should show ("the empty board"), for the refusal of an unreadable one."""
    if isinstance(source, np.ndarray):
        image = source
    else:
        if isinstance(source, (str, Path)):
            try:
                data = Path(source).read_bytes()
            except OSError as exc:
                raise PhotoRefused(f"{source}: cannot read the photo: {exc.strerror or exc}") from None
        else:
            data = bytes(source)
        if len(data) > MAX_PHOTO_BYTES:
            raise PhotoRefused(f"the photo is {len(data) // 1_000_000} MB; at most "
                               f"{MAX_PHOTO_BYTES // 1_000_000} MB are taken: send a smaller photo")
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
        if image is None:
            raise PhotoRefused(f"the photo is not an image OpenCV can read: send a JPEG or PNG photo of {subject}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim != 3 or image.shape[2] not in (3, 4) or image.dtype != np.uint8:
        raise PhotoRefused("the photo is not an 8-bit colour or grey image")
    if image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if max(image.shape[:2]) > max_side or min(image.shape[:2]) < MIN_PHOTO_SIDE:
        raise PhotoRefused(f"the photo is {image.shape[1]}x{image.shape[0]} pixels; take one between "
                           f"{MIN_PHOTO_SIDE} and {max_side} pixels a side")
    return image
