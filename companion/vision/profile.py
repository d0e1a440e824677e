"""The calibration profile: what the drinks of one set look like to one camera over one tray.

A profile is a JSON file. It holds the empty tray (downscaled, as a base64 PNG: the
reference for segmentation and for the lighting of the moment), each drink's measured
features, and per-colour and per-shape models (means and spreads) learnt from them, and each
drink's calibration piece as the set network sees it (``pieces``: its raw crop and side numbers,
the network's prototypes of the set's own drinks; absent in profiles made before them, from
the mat, or given another empty tray's photo).
Sizes are in working pixels of this camera, or in millimetres when the profile came from
the printable mat and the tray's scale is known.
"""
from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from ..drinks import COLOURS, DRINK_IDS, SHAPES

KIND = "tokyo-table-companion/drink-profile"
VERSION = 1
WORK_WIDTH = 640          # frames are analysed at about this width
MAX_PIECES = 4            # calibration pieces kept per drink (poses)


class ProfileError(Exception):
    """The file is not a usable profile (or does not fit the frames given to it)."""


def work_scale(width: int) -> float:
    return min(1.0, WORK_WIDTH / float(width))


@dataclass
class Model:
    """A diagonal Gaussian per class over a feature vector, with a shared spread. For shapes,
    ``offsets`` shift the means by colour (a black drink's outline and shading read a little
    differently from a white one's), fitted as shape effect + colour effect."""

    names: list[str]
    means: dict[str, np.ndarray]
    spread: np.ndarray                     # shared per-feature standard deviation
    offsets: dict[str, np.ndarray] | None = None

    def to_json(self) -> dict:
        d = {"features": self.names, "spread": [round(float(v), 5) for v in self.spread],
             "means": {k: [round(float(x), 5) for x in v] for k, v in self.means.items()}}
        if self.offsets is not None:
            d["offsets"] = {k: [round(float(x), 5) for x in v] for k, v in self.offsets.items()}
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Model":
        offsets = d.get("offsets")
        return cls(list(d["features"]), {k: np.array(v, np.float64) for k, v in d["means"].items()},
                   np.array(d["spread"], np.float64),
                   {k: np.array(v, np.float64) for k, v in offsets.items()} if offsets else None)

    def mean_rows(self) -> tuple[list[str], np.ndarray]:
        """The classes' names and their means as the rows of one array (for distances to all
        classes in one array operation)."""
        names = list(self.means)
        return names, np.array([np.asarray(self.means[k], np.float64) for k in names])

    def distances(self, x: np.ndarray, given: str | None = None) -> dict[str, float]:
        """Squared normalised distance of a feature vector to each class (given a colour)."""
        off = self.offsets.get(given, 0.0) if (self.offsets and given) else 0.0
        names, m = self.mean_rows()
        return dict(zip(names, ((((x - m - off) / self.spread) ** 2).sum(axis=1)).tolist()))


@dataclass
class Profile:
    image_size: tuple[int, int]            # (width, height) of the camera frames
    background: np.ndarray | None          # empty tray, BGR uint8 at working scale
    colour_model: Model
    shape_model: Model
    drinks: dict[str, dict]                # drink id -> measured features (for the record)
    units: str = "px"                      # "px" (working pixels) or "mm"
    mm_homography: list | None = None      # image px -> tray mm, when known
    source: str = ""
    stats: dict = field(default_factory=dict)   # single-drink area range, noise, ...
    # drink id -> (raw crops (k, H, W, RAW) float16, side numbers (k, 3) float32): its calibration
    # pieces as drink_crops cuts them (calibration_pieces.py)
    pieces: dict = field(default_factory=dict)

    # derived, not stored
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def scale(self) -> float:
        return work_scale(self.image_size[0])

    @property
    def work_size(self) -> tuple[int, int]:
        w, h = self.image_size
        s = self.scale
        return (int(round(w * s)), int(round(h * s)))

    # --- files ------------------------------------------------------------------------------

    def to_json(self) -> dict:
        d = {"kind": KIND, "version": VERSION, "image_size": list(self.image_size), "units": self.units,
             "source": self.source, "work_scale": self.scale,
             "colours": self.colour_model.to_json(), "shapes": self.shape_model.to_json(),
             "drinks": self.drinks, "stats": self.stats}
        if self.mm_homography is not None:
            d["mm_homography"] = self.mm_homography
        if self.background is not None:
            ok, buf = cv2.imencode(".png", self.background, [cv2.IMWRITE_PNG_COMPRESSION, 9])
            d["background_png"] = base64.b64encode(buf.tobytes()).decode("ascii")
        if self.pieces:
            d["pieces_npz"] = _pieces_text(self.pieces)
        return d

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, d) -> "Profile":
        if not isinstance(d, dict) or d.get("kind") != KIND:
            raise ProfileError("this is not a drink profile (make one with `companion calibrate drinks`)")
        if d.get("version") != VERSION:
            raise ProfileError(f"drink profile version {d.get('version')} is not supported (expected {VERSION}); "
                               "calibrate again")
        try:
            bg = None
            if d.get("background_png"):
                raw = np.frombuffer(base64.b64decode(d["background_png"]), np.uint8)
                bg = cv2.imdecode(raw, cv2.IMREAD_COLOR)
                if bg is None:
                    raise ProfileError("the profile's empty-tray image is damaged; calibrate again")
            p = cls(image_size=tuple(int(v) for v in d["image_size"]), background=bg,
                    colour_model=Model.from_json(d["colours"]), shape_model=Model.from_json(d["shapes"]),
                    drinks=dict(d.get("drinks", {})), units=d.get("units", "px"),
                    mm_homography=d.get("mm_homography"), source=d.get("source", ""), stats=dict(d.get("stats", {})))
        except ProfileError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise ProfileError(f"the drink profile is incomplete or damaged ({exc.__class__.__name__}: {exc}); "
                               "calibrate again") from None
        missing_c = {c.value for c in COLOURS} - set(p.colour_model.means)
        missing_s = {s.value for s in SHAPES} - set(p.shape_model.means)
        if missing_c or missing_s:
            raise ProfileError("the drink profile lacks " + ", ".join(sorted(missing_c | missing_s)))
        if bg is not None and (bg.shape[1], bg.shape[0]) != p.work_size:
            raise ProfileError("the profile's empty-tray image does not match its frame size; calibrate again")
        if d.get("pieces_npz"):
            p.pieces = _pieces_from_text(d["pieces_npz"])
        return p

    @classmethod
    def load(cls, path: str | Path) -> "Profile":
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ProfileError(f"{path}: no such profile file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ProfileError(f"{path}: cannot read the profile ({exc})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            raise ProfileError(f"{path}: not a drink profile (not JSON); make one with `companion calibrate drinks`") from None
        try:
            return cls.from_json(data)
        except ProfileError as exc:
            raise ProfileError(f"{path}: {exc}") from None

    def with_background(self, image: np.ndarray) -> "Profile":
        """A copy that uses this full-size photo of the empty tray."""
        if (image.shape[1], image.shape[0]) != tuple(self.image_size):
            raise ProfileError(f"the empty-tray photo is {image.shape[1]}x{image.shape[0]}, the profile expects "
                               f"{self.image_size[0]}x{self.image_size[1]}")
        # without the calibration pieces: they were cut against the old tray and its light, which
        # the new photo's crops are not (the set network then reads a piece alone)
        p = Profile(**{k: getattr(self, k) for k in ("image_size", "background", "colour_model", "shape_model",
                                                     "drinks", "units", "mm_homography", "source", "stats")})
        p.background = cv2.resize(image, p.work_size, interpolation=cv2.INTER_AREA)
        return p


def _pieces_text(pieces: dict) -> str:
    import io
    buf = io.BytesIO()
    arrays = {}
    for drink, (crops, side) in pieces.items():
        arrays[f"{drink}/crops"] = np.asarray(crops, np.float16)
        arrays[f"{drink}/side"] = np.asarray(side, np.float32)
    np.savez_compressed(buf, **arrays)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _pieces_from_text(text: str) -> dict:
    """The calibration pieces of a profile file, checked: every drink a known id, at most
    MAX_PIECES crops of the crop's shape each."""
    import io
    import zipfile
    from .drink_crops import H, RAW, W
    try:
        with np.load(io.BytesIO(base64.b64decode(text)), allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except (ValueError, OSError, zipfile.BadZipFile) as exc:
        raise ProfileError(f"the profile's calibration pieces are damaged ({exc}); calibrate again") from None
    out = {}
    for key in arrays:
        drink, _, part = key.partition("/")
        if drink not in DRINK_IDS or part not in ("crops", "side"):
            raise ProfileError(f"the profile's calibration pieces name {key!r}, not a drink; calibrate again")
        if drink in out:
            continue
        crops, side = arrays.get(f"{drink}/crops"), arrays.get(f"{drink}/side")
        if (crops is None or side is None or crops.ndim != 4 or crops.shape[1:] != (H, W, RAW)
                or not 1 <= len(crops) <= MAX_PIECES or side.shape != (len(crops), 3)
                or not np.isfinite(crops).all() or not np.isfinite(side).all()):
            raise ProfileError(f"the profile's calibration pieces of {drink} are damaged; calibrate again")
        out[drink] = (crops.astype(np.float16), side.astype(np.float32))
    return out


def all_drinks_present(drinks: dict) -> list[str]:
    return [d for d in DRINK_IDS if d not in drinks]
