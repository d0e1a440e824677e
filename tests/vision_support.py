"""Shared by the vision tests: running the vision subcommands in-process, as `companion` would,
and rendered tables with the photos the benchmark takes of them.

Rendering a table's 37 calibration photos and calibrating from them takes seconds, so each is
built once and kept on disk, keyed by a hash of the code that makes it (the simulation and drinks
for photos, the vision code too for profiles) and of the libraries that compute it: both test
workers, every later run and every checkout on the machine share it, and an edit of that code
builds afresh. A file lock makes a worker that needs a table the other is building wait for it
rather than build it twice.

Where: ``$TTC_RENDERED_CACHE``, else ``~/.cache/tokyo-table-companion/rendered`` (XDG_CACHE_HOME
honoured), outside the checkout: a fresh clone of unchanged code (CI, another worktree) finds
the 64 tables `make test` uses already built instead of spending some 140-180 CPU-s of its two
cores on them (docs/performance.md, "The test suite", 2026-12-04). ``tests/prerender.py`` drops
the versions unused for a week."""
from __future__ import annotations

import argparse
import copy
import fcntl
import hashlib
import json
import os
import pickle
import shutil
import tempfile
from functools import cache
from pathlib import Path

import numpy as np

from companion.sim.looks import Look
from companion.sim.render import Renderer
from companion.sim.scenes import calibration_photos, render_sample, skip_sample, write_calibration_set
from companion.vision.calibrate import calibrate_photos
from companion.vision.cli import register
from companion.vision.drinks import identify

ROOT = Path(__file__).resolve().parents[1]


def _cache_root() -> Path:
    given = os.environ.get("TTC_RENDERED_CACHE")
    if given:
        return Path(given).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tokyo-table-companion" / "rendered"


CACHE = _cache_root()
PHOTO_CODE = ("sim", "drinks.py")               # what draws a photo
PROFILE_CODE = PHOTO_CODE + ("vision",)         # ...and what calibrates from photos


def run_cli(*argv: str) -> int:
    """Parse ``argv`` with the vision subcommands and run it; returns the exit code."""
    parser = argparse.ArgumentParser(prog="companion")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(list(argv))
    return args.func(args)


def rules_reading(image, profile, debug: bool = False) -> list[dict]:
    """The rules' reading of a frame, for the tests of the rules' own steps (segmentation,
    splitting, the second look): the default scorer checks the rules (vision/checked.py), and
    its check could make a broken step's reading unsure, so that a test of that step passed."""
    return identify(image, profile, debug=debug, scorer="rules")


def reading_at(found: list[dict], truth: dict) -> dict:
    return min(found, key=lambda f: (f["x"] - truth["x"]) ** 2 + (f["y"] - truth["y"]) ** 2)


def _libraries() -> bytes:
    """What else decides a rendered table's bits: Python and the numeric libraries (a cache shared
    by checkouts may meet another venv's)."""
    import platform

    import cv2
    import numba

    return f"{platform.python_version()} {platform.machine()} numpy {np.__version__} " \
           f"cv2 {cv2.__version__} numba {numba.__version__}".encode()


@cache
def code_hash(parts: tuple[str, ...]) -> str:
    """A hash of the project's source files under ``companion/<part>`` for each part, and of the
    libraries' versions."""
    digest = hashlib.sha256(_libraries())
    for part in parts:
        base = ROOT / "companion" / part
        for path in sorted(base.rglob("*.py")) if base.is_dir() else [base]:
            digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _built(name: str, code: tuple[str, ...], make):
    """The path of ``name`` in the cache for this version of ``code``, made by ``make(path)``
    once (under a lock, into a temporary name that is renamed into place when complete)."""
    path = CACHE / code_hash(code) / name
    if path.exists():
        _used(path.parent)
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.parent / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)          # released when the file closes
        if not path.exists():
            part = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{name}."))
            try:
                made = make(part / name)
                os.replace(made, path)
            finally:
                shutil.rmtree(part, ignore_errors=True)
    return path


@cache
def _used(version: Path) -> None:
    """Mark a version of the cache as used (its folder's time), once a process: the prune in
    tests/prerender.py keeps what was used lately."""
    try:
        os.utime(version)
    except OSError:
        pass


def prune(days: float = 7.0) -> list[Path]:
    """Drop the cache's versions (one folder per code hash) unused for ``days``; what was dropped.
    A version in use is touched on every run that uses it, so a running suite keeps its own."""
    import time

    dropped = []
    for version in CACHE.glob("*") if CACHE.is_dir() else ():
        if version.is_dir() and time.time() - version.stat().st_mtime > days * 86400:
            shutil.rmtree(version, ignore_errors=True)
            dropped.append(version)
    return dropped


def _noted(kind: str, **args) -> None:
    """With TTC_RECORD_RENDERED set (tests/prerender.py --record), what a test asked to be built
    is appended there: the list of what the suite uses, for building it ahead (tests/prerender.py)."""
    record = os.environ.get("TTC_RECORD_RENDERED")
    if record:
        with open(record, "a") as f:
            f.write(json.dumps({"kind": kind, **args}) + "\n")


def calibration_set_path(seed: int, tray: str | None = None) -> Path:
    def make(out: Path) -> Path:
        write_calibration_set(out, Look.from_seed(seed, tray), seed)
        return out
    return _built(f"calset-{seed}-{tray}", PHOTO_CODE, make)


def calibration_set(seed: int, tray: str | None = None) -> Path:
    """A folder with the table's rendered calibration photos (background.png and one photo per
    drink), about 60 MB: for the tests of calibration itself. Shared: copy it before changing
    anything in it."""
    _noted("calset", seed=seed, tray=tray)
    return calibration_set_path(seed, tray)


_profiles: dict[tuple, object] = {}


def profile_path(seed: int, tray: str | None = None) -> Path:
    """The file of the table's profile (pickled), built when missing."""
    def make(out: Path) -> Path:
        photos = calibration_photos(Look.from_seed(seed, tray), seed)   # as calibrate_dir reads them
        _, background = next(photos)
        profile = calibrate_photos(background, ((d, f"{d}.png", img) for d, img in photos),
                                   f"calibrate drinks (rendered table {seed})")
        profile._cache = {}                 # derived on first use; megabytes in a file
        out.write_bytes(pickle.dumps(profile))
        return out
    return _built(f"profile-{seed}-{tray}.pickle", PROFILE_CODE, make)


def calibrated(seed: int, tray: str | None = None):
    """The profile ``companion calibrate drinks`` makes from that table's calibration photos;
    each caller gets its own copy to change."""
    key = (seed, tray)
    _noted("profile", seed=seed, tray=tray)
    if key not in _profiles:
        _profiles[key] = pickle.loads(profile_path(seed, tray).read_bytes())
    return copy.deepcopy(_profiles[key])


def photo_path(seed: int, skip: int, difficulty: str = "touching") -> Path:
    """The file of the benchmark's photo after ``skip`` of its sequence (pickled), built when missing."""
    def make(out: Path) -> Path:
        renderer = Renderer(Look.from_seed(seed))
        rng = np.random.default_rng([seed, 31337])
        for _ in range(skip):
            skip_sample(renderer, rng, difficulty)
        out.write_bytes(pickle.dumps(render_sample(renderer, rng, difficulty)))
        return out
    return _built(f"photo-{seed}-{difficulty}-{skip}.pickle", PHOTO_CODE, make)


def benchmark_photo(tmp_path, seed: int, skip: int, difficulty: str = "touching"):
    """A table, calibrated from its rendered photos, and the photo that follows the first
    ``skip`` of the benchmark's sequence at that difficulty: profile, image, truth. The photo is
    kept beside the tables: several tests read the same one, and skipping a photo costs a
    sixth of rendering it (the generator draws its noise all the same)."""
    _noted("photo", seed=seed, skip=skip, difficulty=difficulty)
    image, truth = pickle.loads(photo_path(seed, skip, difficulty).read_bytes())
    return calibrated(seed), image, truth


# What tests/prerender.py builds ahead, by the kind _noted records.
BUILDERS = {"calset": calibration_set_path, "profile": profile_path, "photo": photo_path}


def shadow_band(image: np.ndarray, start: float = 300.0, width: float = 600.0, depth: float = 0.5,
                soft: float = 60.0, angle: float = 0.3, colour=(1.0, 1.0, 1.0)) -> np.ndarray:
    """The photo with a soft shadow band across it (a person leaning over the tray): ``depth`` of
    the light taken within ``width`` px from ``start`` along the direction ``angle`` (radians),
    its edges soft over ``soft`` px; ``colour``: the share of each channel (BGR) taken, when
    the lamp the person blocks has another colour than the rest of the room's light."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = xx * np.cos(angle) + yy * np.sin(angle)
    inside = 1 / (1 + np.exp(-(u - start) / soft)) / (1 + np.exp((u - start - width) / soft))
    gain = 1 - depth * inside[..., None] * np.asarray(colour, np.float32)
    return np.clip(image.astype(np.float32) * gain, 0, 255).astype(np.uint8)
