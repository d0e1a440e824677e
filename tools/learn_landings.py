"""Train the landing reader's network (companion/vision/landing_net.py) on rendered landing scenes.

Two steps, two interpreters:

    # 1. render looks, calibrate each from its own photo of the mat (as a table would), render
    #    scenes, cut every candidate patch of every colour as the reader does, keep each crop with
    #    its truth (the project's venv; one process):
    .venv/bin/python tools/learn_landings.py render --family varied --seeds 0:400 --scenes 4 --out /tmp/land-varied.npz
    .venv/bin/python tools/learn_landings.py render --family dev --seeds 10000:10060 --scenes 4 --out /tmp/land-dev.npz
    # 2. train with PyTorch (never a run-time dependency), set the temperature and the bars of a
    #    sure reading on the held-out set, write models/landing_net.npz and landing_model.json:
    /work/train-venv/bin/python tools/learn_landings.py train /tmp/land-varied.npz --tune-on /tmp/land-dev.npz

A crop's truth: the drink of its colour in the scene when the candidate's middle is on (or
within ``MATCH_MM`` of) that drink's outline as the calibrated camera lays it on the table: its
spot and its middle on the table as an offset in the crop's turned frame; otherwise ``none``
(a coin, a card, a shadow or another drink read as that colour). Every colour is cut in every
scene (a colour not in the scene: its patches are all ``none``, as a drink asked for that is
still in the tower). Evaluation seeds (>= 940000, benchmarks/landings.py) are never rendered here.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

EVAL_SEEDS_FROM = 940_000
MATCH_MM = 4.0
SPOT_INDEX = {"slot": 0, "crate": 1, "outside": 2}
NONE = 3


def random_wants(rng: np.random.Generator) -> list:
    """2-6 drinks of different colours, each asked in a slot, in the crate, outside (half of
    them at a LEMON SQUASH distance) or anywhere (as benchmarks/landings.py asks)."""
    from companion.drinks import COLOURS, SHAPES
    colours = [str(c) for c in rng.permutation([c.value for c in COLOURS])][:int(rng.integers(2, 7))]
    out = []
    for c in colours:
        spot = ["slot", "crate", "outside", None][int(rng.integers(0, 4))]
        distance = int(rng.uniform(40, 330)) if spot == "outside" and rng.random() < 0.5 else None
        out.append((f"{c}-{SHAPES[int(rng.integers(0, len(SHAPES)))].value}", spot, distance))
    return out


def random_crates(rng: np.random.Generator, look) -> tuple | None:
    """Mostly the compose default (one crate in front when one is wanted); sometimes a second
    crate elsewhere on the table, or the first one moved off the middle."""
    from companion.landing import PlacedCrate
    from companion.sim.landing_layouts import default_crate
    pitch, wall = look.pitch_mm, look.wall_mm
    r = rng.random()
    if r < 0.6:
        return None
    first = default_crate(rng, pitch, wall)
    if r < 0.8:
        first = PlacedCrate(x=float(rng.uniform(-150, 150)), y=float(rng.uniform(50, 250)),
                            yaw=float(rng.uniform(-90, 90)), pitch_mm=pitch, wall_mm=wall)
        return (first,)
    second = PlacedCrate(x=float(rng.choice([-1, 1]) * rng.uniform(70, 200)), y=float(rng.uniform(120, 300)),
                         yaw=float(rng.uniform(-90, 90)), pitch_mm=pitch, wall_mm=wall)
    return (first, second)


def label(cand, scene, drink_name, look, camera) -> tuple[int, np.ndarray]:
    """The candidate's class and (for a drink) its middle as the crop's offset (mm)."""
    from companion.landing import spot_of
    from companion.vision.landing_fit import outline
    import cv2
    placed = next((d for d in scene.drinks if d.drink == drink_name), None)
    if placed is None:
        return NONE, np.zeros(2)
    spot = spot_of(scene, placed)
    over = spot != "outside"
    lift = 0.0 if not over else (look.floor_mm if spot == "slot" else look.rim_mm)
    shape = drink_name.partition("-")[2]
    hull = cv2.convexHull(outline(shape, placed.length_mm, placed.width_mm, placed.standing, placed.x, placed.y,
                                  placed.yaw, lift, camera).astype(np.float32))
    inside = cv2.pointPolygonTest(hull, (float(cand.centre[0]), float(cand.centre[1])), True)
    if inside < -MATCH_MM:
        return NONE, np.zeros(2)
    return SPOT_INDEX[spot], np.array([placed.x, placed.y])


def render(args) -> None:
    import cv2
    from companion.drinks import COLOURS, SHAPES
    from companion.landing import distance_of, spot_of
    from companion.sim.landing_layouts import compose
    from companion.sim.landing_render import LandingLook, LandingRenderer
    from companion.vision.landing_calibrate import LandingCalibrationError, calibrate_landing
    from companion.vision.landing_crops import candidates, to_crop, top_view
    from companion.vision.landings import LandingReader

    cv2.setNumThreads(1)
    lo, hi = (int(v) for v in args.seeds.split(":"))
    if hi > EVAL_SEEDS_FROM and args.family == "eval":
        raise SystemExit("evaluation looks are never rendered for training")
    crops, feats, classes, offsets, looks, groups = [], [], [], [], [], []
    group_spot, group_distance = [], []     # per asked drink (scene x colour): its true spot (-1: not there)
    refused, t0, done = 0, time.time(), 0
    for seed in range(lo, hi):
        if args.budget and time.time() - t0 > args.budget:
            break
        look = LandingLook.from_seed(seed, args.family)
        rng = np.random.default_rng([seed, 4242])
        renderer = LandingRenderer(look)
        try:
            cal = calibrate_landing(renderer.calibration_picture(rng))
        except LandingCalibrationError:
            refused += 1
            continue
        reader = LandingReader(cal)
        camera = cal.camera_position
        for _ in range(args.scenes):
            try:
                scene = compose(random_wants(rng), rng, crates=random_crates(rng, look), scale=look.drink_size)
            except ValueError:
                continue
            frame = renderer.render(scene, rng, renderer.random_loose(scene, rng, int(rng.integers(0, 4))))
            size = (frame.shape[1], frame.shape[0])
            view = top_view(frame, reader._top_maps(size), cal.white_bgr, camera)
            present = {d.drink.partition("-")[0]: d.drink for d in scene.drinks}
            for colour in COLOURS:
                name = present.get(colour.value) or f"{colour.value}-{SHAPES[int(rng.integers(0, len(SHAPES)))].value}"
                mirror = bool(rng.random() < 0.5)
                placed = next((d for d in scene.drinks if d.drink == name), None)
                group_spot.append(SPOT_INDEX[spot_of(scene, placed)] if placed else -1)
                group_distance.append(distance_of(placed) if placed else 0)
                for cand in candidates(view, name, mirror=mirror, jitter=rng.normal(0, 1.5, 2)):
                    k, middle = label(cand, scene, name, look, camera)
                    crops.append(cand.crop)
                    feats.append(cand.features)
                    classes.append(k)
                    offsets.append(to_crop(middle, cand.centre, cand.basis, mirror) if k != NONE else np.zeros(2))
                    looks.append(seed)
                    groups.append(len(group_spot) - 1)
        done += 1
        if done % 20 == 0:
            print(f"{done} looks, {len(crops)} crops, {refused} refused, {time.time() - t0:.0f} s", flush=True)
    np.savez_compressed(args.out, crops=np.array(crops, np.uint8), feats=np.array(feats, np.float32),
                        classes=np.array(classes, np.int64), offsets=np.array(offsets, np.float32),
                        looks=np.array(looks, np.int64), groups=np.array(groups, np.int64),
                        group_spot=np.array(group_spot, np.int64), group_distance=np.array(group_distance, np.int64))
    print(f"{args.out}: {done} looks ({refused} calibrations refused), {len(crops)} crops, "
          f"classes {np.bincount(np.array(classes, np.int64), minlength=4).tolist()}, {time.time() - t0:.0f} s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    r = sub.add_parser("render", help="render looks and cut their candidates' crops with their truth")
    r.add_argument("--family", choices=("varied", "dev"), default="varied")
    r.add_argument("--seeds", default="0:100", help="first:last (last not included)")
    r.add_argument("--scenes", type=int, default=4, help="scenes per look")
    r.add_argument("--budget", type=float, default=0, help="stop after this many seconds (0: no limit)")
    r.add_argument("--out", required=True)
    t = sub.add_parser("train", help="train with PyTorch, tune the bars, write the model")
    t.add_argument("data", nargs="+")
    t.add_argument("--tune-on", required=True, help="held-out crops (another render) to set the bars on")
    t.add_argument("--epochs", type=int, default=12)
    t.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.step == "render":
        render(args)
    else:
        from tools_landing_train import train  # noqa: F401  (filled in below)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
