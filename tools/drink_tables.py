"""The rendered tables the drink reader's tools learn from and measure on (issue 26): each a
look of the simulated table, calibrated as ``calibrate drinks`` does from its rendered
calibration photos, then photos of the tray at each difficulty read by the real pipeline.

A table keeps, per photo, the pieces as the pipeline left them before they are named again
(features, sharpness, the rules' reading), the rules' final readings and each piece's drink
(``assign``: as benchmarks/vision.py matches them); with ``crops`` each piece's raw crop too
(the pixel networks' data). Tables are cached under build/learn_drinks/, one a file, and
rendered ``jobs`` at a time: each is seeded on its own, so the files are the same in any order.
The training tables' photos include HARSH harsher ones (``harsh_sample``): the augmentation in
the frames. Used by tools/learn_drinks.py (the learned feature scorer), learn_drink_pixels.py
(the pixel networks), drink_pixel_data.py and the choose_* tools.
"""
from __future__ import annotations

import copy
import pickle
import time
from pathlib import Path

import cv2
import numpy as np

from drink_measure import DIFFICULTIES

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = 8                            # per table and difficulty (measuring)
TRAIN_PHOTOS = 6                      # ... (training and temperature tables)
HARSH = 8                             # harsher photos per training table (harsh_sample)
CACHE = ROOT / "build" / "learn_drinks"


def use_sim_from(path: str | None) -> None:
    """Render with another checkout's simulation (the evaluation family lives in its branch
    until merged), while reading with this checkout's vision code."""
    if path:
        import companion.sim
        companion.sim.__path__ = [str(Path(path).resolve() / "companion" / "sim")]


def assign(readings: list[dict], truth: list[dict]) -> list[str | None]:
    """Each reading's drink as benchmarks/vision.py matches them: for each drink in turn, the
    nearest unused reading whose centroid lies within 3 px of its box; None: on no drink."""
    got: list[str | None] = [None] * len(readings)
    for t in truth:
        box = np.array(t["box"], np.float32)
        best = None
        for j, d in enumerate(readings):
            if got[j] is None and cv2.pointPolygonTest(box, (float(d["x"]), float(d["y"])), True) > -3:
                dist = float(np.hypot(d["x"] - t["x"], d["y"] - t["y"]))
                if best is None or dist < best[0]:
                    best = (dist, j)
        if best is not None:
            got[best[1]] = t["id"]
    return got


def harsh_sample(renderer, rng: np.random.Generator):
    """A photo harsher than the benchmark's hard one, the augmentation of the training tables:
    a stronger drift of the light (up to twice the drift difficulty's), more motion blur, lower
    JPEG quality, touching or not, each drawn on its own."""
    from companion.sim.looks import Lighting
    from companion.sim.scenes import random_scene
    scene = random_scene(renderer.look, renderer, rng, int(rng.integers(3, 9)), bool(rng.random() < 0.7))
    light = Lighting.drift(rng, float(rng.uniform(1.0, 2.0)))
    blur = float(rng.uniform(1, 8)) if rng.random() < 0.6 else 0.0
    quality = int(rng.integers(35, 80)) if rng.random() < 0.6 else None
    return renderer.render(scene, light, rng=rng, jpeg_quality=quality, motion_blur=blur)


def read_photos(renderer, profile, seed: int, plan, crops: bool = False, key: int = 41_000) -> list[dict]:
    """Photos of a calibrated table, ``plan``: (difficulty or "harsh", how many), each read by the
    real pipeline: per photo the pieces before they are named again, the rules' final readings,
    each piece's drink (and with ``crops`` each piece's raw crop). Photo k of the plan is drawn
    from the seed ``[seed, key + k]``."""
    from companion.sim.scenes import render_sample
    from companion.vision.drinks import identify_analysis
    from companion.vision.segment import FrameError, analyse
    photos = []
    for k, (difficulty, n) in enumerate(plan):
        rng = np.random.default_rng([seed, key + k])
        for _ in range(n):
            img, truth = harsh_sample(renderer, rng) if difficulty == "harsh" else render_sample(renderer, rng, difficulty)
            kept = {}

            def keep(readings, an, _profile):
                kept["sharpness"] = float(an.sharpness)
                if crops:
                    from companion.vision.drink_crops import raw_crops
                    kept["crops"] = raw_crops(readings, an, profile).astype(np.float16)
                kept["pieces"] = [{k2: v for k2, v in d.items() if k2 != "_piece"} for d in copy.deepcopy(readings)]

            try:
                an = analyse(img, profile)
                final = identify_analysis(an, profile, keep)
            except Exception as exc:         # a refused frame; or a reader's failure, left out as
                if not isinstance(exc, FrameError):      # benchmarks/vision.py counts it, and said
                    print(f"  table {seed}, {difficulty} photo: reading failed: {exc!r}", flush=True)
                final, kept = [], {"sharpness": 1.0, "pieces": []}
                if crops:
                    from companion.vision.drink_crops import RAW, H, W
                    kept["crops"] = np.zeros((0, H, W, RAW), np.float16)
            truth = [{k2: v for k2, v in t.items() if k2 != "mask"} for t in truth]
            photos.append({"difficulty": difficulty, "sharpness": kept["sharpness"],
                           "pieces": kept["pieces"], "rules": final, "drinks": len(truth),
                           "truth": assign(final, truth), **({"crops": kept["crops"]} if crops else {})})
    return photos


def table(seed: int, family: str, photos: int, fresh: bool = False, harsh: int = 0, crops: bool = False,
          on_calibrated=None) -> dict:
    """One rendered table: its profile and, per photo, the pieces as the pipeline left them
    before naming them again (features, sharpness, the rules' reading), the rules' final
    readings and each piece's drink; with ``crops`` also each piece's raw crop
    (``drink_crops.raw_crops``, float16: the pixel scorer's data). Cached under build/learn_drinks/.
    ``on_calibrated(table, profile, shots)``: called with the calibration photos (drink id,
    image) once the table is calibrated, when it is rendered now (tools/drink_pixel_data.py
    reads them as training pieces without rendering them again)."""
    path = cache_path(seed, family, photos, harsh, crops)
    if path.exists() and not fresh:
        return pickle.loads(path.read_bytes())
    from companion.sim.looks import Look
    from companion.sim.render import Renderer
    from companion.sim.scenes import calibration_photos
    from companion.vision.calibrate import CalibrationError, calibrate_photos

    look = Look.from_seed(seed, family=family)
    shots = calibration_photos(look, seed)        # as calibrate_dir reads them
    if on_calibrated is not None:
        kept = list(shots)                        # for the hook (the tray and 36 photos)
        shots = iter(kept)
    _, background = next(shots)
    out = {"seed": seed, "family": family, "tray": look.tray, "photos": []}
    try:
        profile = calibrate_photos(background, ((d, f"{d}.png", img) for d, img in shots), f"table {seed}")
    except CalibrationError as exc:
        # a look whose calibration photos calibrate would refuse (a drink's glare or shadow
        # taken for a second object): a player would take that photo again; here the table is
        # left out, and says why
        out.update(profile=None, refused=str(exc))
        CACHE.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(out))
        return out
    plan = [(d, photos) for d in DIFFICULTIES] + [("harsh", harsh)]
    out["photos"] = read_photos(Renderer(look), profile, seed, plan, crops)
    if on_calibrated is not None:
        on_calibrated(out, profile, kept[1:])
    profile._cache = {}
    out["profile"] = profile
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(pickle.dumps(out))
    tmp.replace(path)
    return out


def cache_path(seed: int, family: str, photos: int, harsh: int, crops: bool = False) -> Path:
    return CACHE / f"{family}-{seed}-{photos}-{harsh}{'-px' if crops else ''}.pickle"


def _table_job(job) -> tuple[int, float]:
    seed, family, photos, fresh, harsh, crops = job
    cv2.setNumThreads(1)
    t0 = time.perf_counter()
    table(seed, family, photos, fresh, harsh, crops)
    return seed, time.perf_counter() - t0


def tables(seeds, family: str, photos: int, fresh: bool = False, harsh: int = 0, jobs: int = 1,
           crops: bool = False) -> list[dict]:
    """The tables of ``seeds``, rendered (``jobs`` processes at a time: each table is seeded on
    its own, so the files are the same whatever the order) or read from build/learn_drinks/."""
    todo = [s for s in seeds if fresh or not cache_path(s, family, photos, harsh, crops).exists()]
    if todo:
        work = [(s, family, photos, fresh, harsh, crops) for s in todo]
        if jobs > 1 and len(todo) > 1:
            import multiprocessing
            with multiprocessing.get_context("fork").Pool(jobs) as pool:
                for i, (seed, took) in enumerate(pool.imap_unordered(_table_job, work)):
                    print(f"  {family} table {seed} ({i + 1}/{len(todo)}): {took:.1f} s", flush=True)
        else:
            for i, job in enumerate(work):
                seed, took = _table_job(job)
                print(f"  {family} table {seed} ({i + 1}/{len(todo)}): {took:.1f} s", flush=True)
    got = [table(s, family, photos, False, harsh, crops) for s in seeds]
    refused = [t["seed"] for t in got if t.get("refused")]
    if refused:
        print(f"  {family} tables left out, their calibration photos refused: {refused}", flush=True)
    return [t for t in got if not t.get("refused")]


def family_tables(plan, photos: int, fresh: bool = False, harsh: int = 0, jobs: int = 1,
                  limit: int | None = None, crops: bool = False) -> list[dict]:
    """The tables of a plan of (family, seeds), the first ``limit`` of each family's seeds."""
    return [t for family, seeds in plan
            for t in tables(seeds[:limit] if limit else seeds, family, photos, fresh, harsh, jobs, crops)]
