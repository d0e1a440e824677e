"""Each drink's calibration photo as the set network sees a piece (issue 26): the crop and side
numbers of the drink in it, read with the finished profile, kept in the profile (``pieces``).

The set network compares every piece of a frame with these (``pixel_scorer``: its prototypes):
they are this set's drinks under this camera, tray and lamp, which no training render showed.
The rules compare with the same photos through the colour and shape models; the network, without
them, saw only the set's sizes and plastic colours as numbers.

The photo is read by the whole reader, as a frame would be (``identify_analysis``), and the
largest piece is the drink: the training tool reads its tables' calibration photos the same way
(tools/drink_pixel_data.py).
"""
from __future__ import annotations

import copy

import numpy as np

from .profile import MAX_PIECES, Profile


def read_pieces(img: np.ndarray, profile: Profile) -> tuple[float, np.ndarray, list[dict]]:
    """A photo read by the whole reader: its sharpness, the raw crops of its readings (n, H, W,
    RAW) and the readings (without their pixels). Raises FrameError for a frame it refuses."""
    from .drink_crops import raw_crops
    from .drinks import identify_analysis
    from .segment import analyse
    kept = {}

    def keep(readings, an, _profile):
        kept["sharpness"] = float(an.sharpness)
        kept["crops"] = raw_crops(readings, an, profile)
        kept["pieces"] = [{k: v for k, v in d.items() if k != "_piece"} for d in copy.deepcopy(readings)]

    an = analyse(img, profile)
    identify_analysis(an, profile, keep)
    if "pieces" not in kept:
        return float(an.sharpness), np.zeros((0,), np.float32), []
    return kept["sharpness"], kept["crops"], kept["pieces"]


def largest_piece(img: np.ndarray, profile: Profile) -> tuple[np.ndarray, np.ndarray] | None:
    """The raw crop (H, W, RAW) and side numbers (3) of the largest piece of a calibration photo;
    None when the reader refuses the photo or finds nothing."""
    from .drink_crops import side_inputs
    from .segment import FrameError
    try:
        sharpness, crops, pieces = read_pieces(img, profile)
    except FrameError:
        return None
    if not pieces:
        return None
    k = int(np.argmax([float(d["_f"].get("area", 0.0)) for d in pieces]))
    return crops[k], side_inputs([pieces[k]], sharpness, profile)[0]


def add_pieces(profile: Profile, photos) -> Profile:
    """The profile with the calibration pieces of ``photos`` ((drink id, BGR image) pairs) added,
    at most MAX_PIECES a drink (the first kept); in place, and returned."""
    for drink, img in photos:
        got = largest_piece(img, profile)
        if got is None:
            continue
        crop, side = got
        have = profile.pieces.get(drink)
        if have is not None and len(have[0]) >= MAX_PIECES:
            continue
        crops = crop[None].astype(np.float16) if have is None else np.concatenate([have[0], crop[None].astype(np.float16)])
        sides = side[None].astype(np.float32) if have is None else np.concatenate([have[1], side[None].astype(np.float32)])
        profile.pieces[drink] = (crops, sides)
    profile._cache.pop("prototypes", None)
    return profile
