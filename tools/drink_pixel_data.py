"""The pixel scorer's data step (tools/learn_drink_pixels.py): which tables, and what of each.

Each training table (tools/learn_drinks.py's ``table``: calibrated from its own rendered photos,
its photos read by the real pipeline, each piece's raw crop kept) also gives its calibration
pieces (``calibration_pieces``, cached beside it under build/learn_drinks/): the table's own
36 calibration photos read with the profile they made, each once as taken and CALIB_AUGMENTED
times relit (a gain per channel and overall), blurred (Gaussian or along a line) and
JPEG-compressed: each set's 36 drinks, as a player's calibration photos show them, for the
price of reading them (the table's rendering hands them over). The piece with the largest
area is the drink; any other piece of the photo (a shadow, a fragment) is "no single drink".

``render_all`` makes every table of a plan with ``jobs`` processes, a table (its photos, its
calibration pieces) per job: tables are seeded on their own, so the files are the same
whatever the order.
"""
from __future__ import annotations

import copy
import pickle
import time

import cv2
import numpy as np

import drink_tables

CALIB_AUGMENTED = 1               # relit, blurred, compressed readings of each calibration photo
CALIB_KEY = 44_000


def _cached(path, make):
    if path.exists():
        return pickle.loads(path.read_bytes())
    value = make()
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(pickle.dumps(value))
    tmp.replace(path)
    return value


def augment_photo(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A calibration photo as another lamp, a shaking hand and a phone's compression might give
    it: each channel's gain by ~6 %, all by ~15 %; half blurred (Gaussian, or along a line as a
    moving camera); JPEG at quality 35-90 most of the time."""
    out = img.astype(np.float32) * np.exp(rng.normal(0, 0.06, 3) + rng.normal(0, 0.15))
    if rng.random() < 0.5:
        if rng.random() < 0.5:
            out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.5, 2.0)))
        else:
            k = int(rng.integers(3, 10))
            line = np.zeros((k, k), np.float32)
            line[k // 2] = 1.0 / k
            rot = cv2.getRotationMatrix2D(((k - 1) / 2, (k - 1) / 2), float(rng.uniform(0, 180)), 1.0)
            line = cv2.warpAffine(line, rot, (k, k))
            out = cv2.filter2D(out, -1, line / max(float(line.sum()), 1e-6))
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 91))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def read_single(img: np.ndarray, drink: str, profile) -> dict | None:
    """One photo of one drink read by the real pipeline, as ``learn_drinks.read_photos`` keeps a
    photo; None when the frame was refused or nothing was found (the reading as the run time's
    calibration reads it: companion/vision/calibration_pieces.py)."""
    from companion.vision.calibration_pieces import read_pieces
    from companion.vision.segment import FrameError
    try:
        sharpness, crops, pieces = read_pieces(img, profile)
    except FrameError:
        return None
    except Exception as exc:               # a reader's failure: said, and the photo left out
        print(f"  calibration photo of {drink}: reading failed: {exc!r}", flush=True)
        return None
    if not pieces:
        return None
    areas = [float(d["_f"].get("area", 0.0)) for d in pieces]
    biggest = int(np.argmax(areas))
    truth = [drink if k == biggest else None for k in range(len(areas))]
    return {"difficulty": "calibration", "sharpness": sharpness, "pieces": pieces,
            "crops": crops.astype(np.float16), "truth": truth, "drinks": 1}


def _calibration_path(family: str, seed: int):
    return drink_tables.CACHE / f"{family}-{seed}-calib{CALIB_AUGMENTED}-px.pickle"


def read_calibration(seed: int, shots, profile) -> list[dict]:
    """Calibration photos (drink id, image) read with the profile they made: each as taken and
    CALIB_AUGMENTED times augmented (``augment_photo``)."""
    profile = copy.deepcopy(profile)
    rng = np.random.default_rng([seed, CALIB_KEY])
    out = []
    for drink, img in shots:
        for k in range(1 + CALIB_AUGMENTED):
            photo = read_single(img if k == 0 else augment_photo(img, rng), drink, profile)
            if photo is not None:
                out.append(photo)
    return out


def _keep_calibration(tab: dict, profile, shots) -> None:
    """learn_drinks.table's hook: the calibration pieces of a table being rendered, from the
    photos it calibrated with (not rendered again)."""
    _cached(_calibration_path(tab["family"], tab["seed"]), lambda: read_calibration(tab["seed"], shots, profile))


def calibration_pieces(tab: dict) -> list[dict]:
    """The table's calibration pieces (rendered again when the table was rendered without them)."""
    def make():
        from companion.sim.looks import Look
        from companion.sim.scenes import calibration_photos
        shots = calibration_photos(Look.from_seed(tab["seed"], family=tab["family"]), tab["seed"])
        next(shots)                                          # the empty tray
        return read_calibration(tab["seed"], shots, tab["profile"])
    return _cached(_calibration_path(tab["family"], tab["seed"]), make)


def _pixel_table_job(job) -> tuple[str, int, float]:
    """One table whole: its photos and (``extras``: a training table) its calibration pieces."""
    family, seed, photos, harsh, extras = job
    cv2.setNumThreads(1)
    t0 = time.perf_counter()
    tab = drink_tables.table(seed, family, photos, False, harsh, True,
                     on_calibrated=_keep_calibration if extras else None)
    if extras and not tab.get("refused"):
        calibration_pieces(tab)
    return family, seed, time.perf_counter() - t0


def render_all(tables: list[tuple[str, int, int, int]], extras: bool, jobs: int = 1, log=print) -> None:
    """Render and cache tables given as (family, seed, photos per difficulty, harsh photos),
    ``jobs`` processes at a time; with ``extras`` also their calibration pieces (the training
    tables)."""
    work = [(*t, extras) for t in tables]
    if jobs > 1 and len(work) > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            done = pool.imap_unordered(_pixel_table_job, work)
            for i, (fam, seed, took) in enumerate(done):
                log(f"  {fam} table {seed} ({i + 1}/{len(work)}): {took:.1f} s")
    else:
        for i, job in enumerate(work):
            fam, seed, took = _pixel_table_job(job)
            log(f"  {fam} table {seed} ({i + 1}/{len(work)}): {took:.1f} s")


def attach_pieces(tab: dict) -> dict:
    """The table with its profile's calibration pieces (``Profile.pieces``, as ``calibrate_photos``
    now keeps them) where the cached profile was made before them: each drink's first calibration
    piece (the photo as taken, unless the reader refused it), its crop and side numbers."""
    profile = tab["profile"]
    if getattr(profile, "pieces", None):
        return tab
    from companion.vision.drink_crops import side_inputs
    pieces = {}
    for photo in calibration_pieces(tab):
        drink = next((t for t in photo["truth"] if t is not None), None)
        if drink is None or drink in pieces:
            continue
        k = photo["truth"].index(drink)
        side = side_inputs([photo["pieces"][k]], photo["sharpness"], profile)
        pieces[drink] = (np.asarray(photo["crops"][k:k + 1], np.float16), side.astype(np.float32))
    profile.pieces = pieces
    profile._cache.pop("prototypes", None)
    return tab


def with_extras(tabs: list[dict], rendered_only: bool = False) -> list[dict]:
    """The training tables with their calibration pieces (with ``rendered_only``: only where
    already cached)."""
    out = []
    for tab in tabs:
        cached = _calibration_path(tab["family"], tab["seed"]).exists()
        extra = calibration_pieces(tab) if cached or not rendered_only else []
        out.append({**tab, "photos": tab["photos"] + extra})
    return out
