"""Landing models compared, alone and averaged (an ensemble), without rendering again.

Three steps:

    # 1. the benchmark's draws of some looks (benchmarks/landings.py: the same scene, the same
    #    calibration) cut into each asked drink's candidate crops, kept with the truth
    #    (dev and varied only: the eval family is only ever scored by the benchmark):
    PYTHONPATH=$PWD .venv/bin/python tools/landing_ensemble.py cache --family varied --first 20000 --looks 40 --out build/land2/varied-20000.npz
    # 2. each model and each ensemble: its bars set on the held-out dev crops (tools/learn_landings.py's
    #    way: the most right with at most 0.2 % sure mistakes; --rivals 0.3: the rival bar fixed;
    #    --own-bars: each model at the bars its settings name, as the reader reads it), then the
    #    held-out sets read:
    PYTHONPATH=$PWD .venv/bin/python tools/landing_ensemble.py compare --tune-on build/land2/dev.npz \\
        --held-out build/land2/varied-20000.npz --model committed=companion/vision/models \\
        --model s1=build/land2/model_s1 --ensemble committed+s1 --combine product mean
    # 3. (an ensemble kept) its members written as the committed model, bars set on the dev crops:
    PYTHONPATH=$PWD .venv/bin/python tools/landing_ensemble.py write build/land2/model_s1 build/land2/model_s2 \\
        --tune-on build/land2/dev.npz [--out-dir DIR]

An ensemble combines its members' spot probabilities (each at its own temperature, each crop
read as it is and mirrored, as ``LandingModel.read``) as a product (the mean of their logs, over
a temperature of its own fitted on the tuning crops) or as their mean, averages their middles,
and takes the mean error scale plus the members' mean distance from the averaged middle (their
disagreement) as its scale (``landing_net.LandingEnsemble``). The cached sets are read as the
benchmark reads them (the committed model's cached varied 20000-039 is the benchmark's to the
drink); a frame the reader would refuse as a camera error counts no drink, as in the benchmark.
"""
from __future__ import annotations

import argparse
import json
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
sys.path.insert(0, str(ROOT / "tools"))
from landing_bars import outputs, picks  # noqa: E402  (each drink's reading of the cached crops)

SPOT_INDEX = {"slot": 0, "crate": 1, "outside": 2}


def cache(args) -> None:
    """The benchmark's draws (benchmarks/landings.py's ``run``) cut into candidate crops."""
    import cv2
    from companion.sim.landing_render import benchmark_looks
    from companion.vision import landing_crops
    from companion.vision.landing_calibrate import LandingCalibrationError, calibrate_landing
    from companion.vision.landing_crops import candidates, frame_projector, top_view
    from companion.vision.landings import LandingReader, _usable

    if args.family not in ("dev", "varied"):
        raise SystemExit("dev and varied looks only: the eval family is only ever scored")
    from companion.vision.landing_net import pixels_of
    cv2.setNumThreads(1)
    landing_crops.MAX_CANDIDATES = args.candidates
    pixels = pixels_of({"pixels": args.pixels})
    crops, feats, groups, places = [], [], [], []
    group_spot, group_distance, group_look = [], [], []
    seed, done, refused, t0, unusable = args.first, 0, 0, time.time(), []
    for seed, _look, frame, true, photo in benchmark_looks(args.family, args.first, args.looks):   # the benchmark's own
        done += 1
        try:
            cal = calibrate_landing(photo)
        except LandingCalibrationError:
            refused += 1
            cal = None
        if cal is not None:
            reader = LandingReader(cal, learned=False)
            frame = _usable(frame, cal.image_size)
            if frame is None:
                unusable.append(seed)
                continue                  # the benchmark counts no drink of a frame read as a camera error
            view = top_view(frame, reader._top_maps((frame.shape[1], frame.shape[0])), cal.white_bgr,
                            cal.camera_position, frame_projector(cal, (frame.shape[1], frame.shape[0])), pixels)
        for t in true:
            group_spot.append(SPOT_INDEX[t.spot])
            group_distance.append(int(t.distance_mm))
            group_look.append(seed)
            if cal is None:
                continue                  # a refused calibration: its drinks not seen
            colours = tuple(x.drink.partition("-")[0] for x in true)
            for c in candidates(view, t.drink, channels=landing_crops.LAYOUTS[args.channels], also=colours):
                crops.append(c.crop)
                feats.append(c.features)
                groups.append(len(group_spot) - 1)
                places.append([*c.centre, *c.basis[1], 0.0])
    n = len(crops)
    np.savez_compressed(args.out, crops=np.array(crops, np.uint8).reshape(n, 56, 56, -1),
                        feats=np.array(feats, np.float32).reshape(n, -1),
                        classes=np.full(n, -1, np.int64), offsets=np.zeros((n, 2), np.float32),
                        looks=np.array([group_look[g] for g in groups], np.int64), groups=np.array(groups, np.int64),
                        places=np.array(places, np.float32).reshape(-1, 5),
                        group_spot=np.array(group_spot, np.int64), group_distance=np.array(group_distance, np.int64),
                        pixels=np.array(args.pixels))
    print(f"{args.out}: {args.family} {args.first}-{seed}, {done} looks ({refused} calibrations refused, frames unusable "
          f"{unusable}), {len(group_spot)} drinks, {n} crops, {time.time() - t0:.0f} s")


def score(chosen, data, sure: float, sure_scale: float, rival: float = 0.3, second=None) -> dict:
    """As the benchmark counts (the distance rounded and capped as the reader reports it);
    drinks not in the scene (the training renders' groups of spot -1) read sure: phantom.
    ``second``: the second way's bars (drink, share; ``landing_reading.is_sure``)."""
    from companion.landing import MAX_DISTANCE_MM
    from companion.vision.landing_reading import SureBars, is_sure as sure_by
    bars = SureBars(sure, sure_scale, rival, *(second or (None, None)))
    c = {"right": 0, "sure_wrong": 0, "unsure": 0, "not_seen": 0, "phantom_sure": 0}
    for g, pick in enumerate(chosen):
        true_spot = int(data["group_spot"][g])
        is_sure = pick is not None and sure_by(pick, bars)
        if true_spot < 0:
            c["phantom_sure"] += int(is_sure)
        elif pick is None:
            c["not_seen"] += 1
        elif not is_sure:
            c["unsure"] += 1
        else:
            d = min(MAX_DISTANCE_MM, round(math.hypot(*pick["middle"])))
            true_d = float(data["group_distance"][g])
            ok = pick["spot"] == true_spot and abs(d - true_d) <= max(10, 0.05 * true_d)
            c["right" if ok else "sure_wrong"] += 1
    return c


def bars(chosen, data, max_wrong: float = 0.002, rivals=None) -> tuple[float, float, float, dict]:
    """tools/learn_landings.py's ``tune_bars`` grid and rule: next to no sure mistakes, then the
    most right (``rivals``: the rival bars tried; learn_landings.RIVALS by default)."""
    from landing_bars import RIVALS
    best = None
    for rival in rivals or RIVALS:
        for sure in (0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999):
            for scale in (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 7.0, 10.0):
                c = score(chosen, data, sure, scale, rival)
                drinks = max(1, c["right"] + c["sure_wrong"] + c["unsure"] + c["not_seen"])
                key = (c["sure_wrong"] + c["phantom_sure"] <= max_wrong * drinks, c["right"], -c["sure_wrong"])
                if best is None or key > best[0]:
                    best = (key, sure, scale, rival, c)
    return best[1:]


def doubts(chosen, data, sure: float, sure_scale: float, rival: float = 0.3, second=None) -> dict:
    """The unsure drinks by what kept them unsure (as tools/landing_doubts.py counts), and how
    many of them the likeliest answer had right (``second``: as ``score``)."""
    from companion.landing import MAX_DISTANCE_MM
    from companion.vision.landing_reading import SureBars, is_sure
    bars = SureBars(sure, sure_scale, rival, *(second or (None, None)))
    out = {"rival": 0, "p_short": 0, "scale_alone": 0, "unsure_right": 0}
    for g, pick in enumerate(chosen):
        if pick is None or int(data["group_spot"][g]) < 0 or is_sure(pick, bars):
            continue
        is_rival = pick["rival_p"] >= rival
        out["rival"] += int(is_rival)
        out["p_short"] += int(pick["p_spot"] < sure)
        out["scale_alone"] += int(pick["p_spot"] >= sure and not is_rival)
        d = min(MAX_DISTANCE_MM, round(math.hypot(*pick["middle"])))
        true_d = float(data["group_distance"][g])
        out["unsure_right"] += int(pick["spot"] == data["group_spot"][g] and abs(d - true_d) <= max(10, 0.05 * true_d))
    return out


class Remembered:
    """A model whose reads of the same crops are kept (an ensemble's members read once)."""

    def __init__(self, model):
        self.model, self.memo, self.channels = model, {}, model.channels
        self.pixels = getattr(model, "pixels", None)
        self.temperature, self.settings = getattr(model, "temperature", 1.0), getattr(model, "settings", {})

    def read(self, crops, feats):
        key = (crops.__array_interface__["data"][0], len(crops))
        if key not in self.memo:
            self.memo[key] = self.model.read(crops, feats)
        return self.memo[key]


def fit_temperature(members, tune, combine: str = "product") -> float:
    """The ensemble's temperature: the likeliest of the tuning crops' classes (0.5-3.0 by 0.1,
    as tools/learn_landings.py sets a single network's)."""
    from companion.vision.landing_net import LandingEnsemble
    if combine == "mean":
        return 1.0

    def nll(t):
        width = len(members[0].channels)
        p = np.concatenate([LandingEnsemble(members, {"temperature": t}).read(tune["crops"][s:s + 512, ..., :width],
                                                                               tune["feats"][s:s + 512])[0]
                            for s in range(0, len(tune["classes"]), 512)])
        return float(-np.log(np.clip(p[np.arange(len(p)), tune["classes"]], 1e-12, 1)).mean())
    return round(float(min(np.arange(0.5, 3.01, 0.1), key=nll)), 2)


def load_model(folder: str):
    from companion.vision.landing_net import landing_model
    folder = Path(folder)
    return landing_model(str(folder / "landing_model.json"), str(folder / "landing_net.npz"))


def compare(args) -> None:
    from companion.vision.landing_net import LandingEnsemble
    from learn_landings import load
    tune = load([args.tune_on], whole=True)
    held = {Path(h).stem: load([h], whole=True) for h in args.held_out}
    models = dict(m.split("=", 1) for m in args.model)
    loaded = {name: Remembered(load_model(path)) for name, path in models.items()}
    runs = [([name], None) for name in models] + [(e.split("+"), k) for e in args.ensemble for k in args.combine]
    rows = []
    for members, combine in runs:
        t = time.process_time()
        if len(members) == 1:
            model, label = loaded[members[0]], members[0]
        else:
            group = [loaded[m] for m in members]
            temperature = fit_temperature(group, tune, combine)
            model = LandingEnsemble(group, {"combine": combine, "temperature": temperature})
            label = "+".join(members) + f" ({combine}, T {temperature})"
        chosen = picks(outputs(model, tune), tune)
        if args.own_bars and len(members) == 1:
            # the bars the model's settings name, as the reader reads it (a search on a few hundred
            # tuning drinks is a lottery: docs/performance.md, 50th session); the tuning drinks counted
            own = loaded[members[0]].model
            sure, scale, rival = own.sure, own.sure_scale_mm, own.rival
            second = (own.sure_drink, own.sure_share) if own.sure_drink is not None else None
            c = score(chosen, tune, sure, scale, rival, second)
        else:
            second = None
            sure, scale, rival, c = bars(chosen, tune, args.max_wrong, args.rivals)
        row = {"model": label, "sure": sure, "scale": scale, "rival": rival,
               "bars": f"{c['right']} / {c['sure_wrong']} / {c['unsure']} / {c['not_seen']}"}
        for name, data in held.items():
            ch = picks(outputs(model, data), data)
            h = score(ch, data, sure, scale, rival, second)
            n = max(1, sum(h[k] for k in ("right", "sure_wrong", "unsure", "not_seen")))
            row[name] = " / ".join(f"{100 * h[k] / n:.1f}" for k in ("right", "sure_wrong", "unsure", "not_seen")) + \
                f" ({h['right']}, {h['sure_wrong']})"
            row[name + " doubts"] = doubts(ch, data, sure, scale, rival, second)
        row["cpu_s"] = round(time.process_time() - t, 1)
        rows.append(row)
        print(json.dumps(row), flush=True)


def write(args) -> None:
    """The ensemble of the named model folders as the committed model: its members' weights
    copied beside each other (the first as landing_net.npz), the bars set on the tuning crops."""
    import shutil
    from companion.vision.landing_net import NET_PATH, LandingEnsemble
    from learn_landings import load
    tune = load([args.tune_on])
    loaded = [Remembered(load_model(f)) for f in args.folders]
    temperature = fit_temperature(loaded, tune, args.combine)
    model = LandingEnsemble(loaded, {"combine": args.combine, "temperature": temperature})
    sure, scale, rival, c = bars(picks(outputs(model, tune), tune), tune, args.max_wrong, args.rivals)
    out = Path(args.out_dir) if args.out_dir else NET_PATH.parent
    out.mkdir(parents=True, exist_ok=True)
    members = []
    for i, (folder, m) in enumerate(zip(args.folders, loaded)):
        name = "landing_net.npz" if i == 0 else f"landing_net_{i + 1}.npz"
        if Path(folder, "landing_net.npz").resolve() != (out / name).resolve():
            shutil.copyfile(Path(folder, "landing_net.npz"), out / name)
        members.append({"net": name, "temperature": m.temperature,
                        **{k: m.settings[k] for k in ("data", "epochs", "seed", "trained_on") if k in m.settings}})
    first = loaded[0].settings
    settings = {k: first[k] for k in ("spots", "features", "channels")}
    settings.update({"members": members, "combine": args.combine, "temperature": temperature,
                     "sure": sure, "sure_scale_mm": scale, "rival": rival,
                     "tuned_on": {"data": Path(args.tune_on).name, **{k: int(v) for k, v in c.items()}}})
    (out / "landing_model.json").write_text(json.dumps(settings, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{out}: {len(members)} members ({args.combine}, temperature {temperature}), sure {sure}, scale {scale} mm, rival {rival}: held-out {c}")


def main() -> int:
    from companion.vision.landing_crops import LAYOUTS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    c = sub.add_parser("cache", help="cut the benchmark's draws into candidate crops")
    c.add_argument("--family", choices=("dev", "varied"), default="varied")
    c.add_argument("--first", type=int, default=20000)
    c.add_argument("--looks", type=int, default=40)
    c.add_argument("--candidates", type=int, default=4)
    c.add_argument("--channels", choices=tuple(LAYOUTS), default="top", help="the crops' channels (landing_crops.LAYOUTS)")
    c.add_argument("--pixels", choices=("rules", "learned"), default="rules", help="the pixel classes cut with")
    c.add_argument("--out", required=True)
    m = sub.add_parser("compare", help="models and ensembles: bars on the tuning crops, then the held-out sets")
    m.add_argument("--tune-on", required=True)
    m.add_argument("--held-out", nargs="*", default=[])
    m.add_argument("--model", action="append", default=[], help="name=folder (landing_model.json, landing_net.npz)")
    m.add_argument("--ensemble", action="append", default=[], help="names joined by +")
    m.add_argument("--combine", nargs="+", default=["product"], choices=("product", "mean"),
                   help="how an ensemble's probabilities are combined (landing_net.LandingEnsemble)")
    m.add_argument("--max-wrong", type=float, default=0.002)
    m.add_argument("--rivals", type=float, nargs="+", help="the rival bars tried (learn_landings.RIVALS by default)")
    m.add_argument("--own-bars", action="store_true",
                   help="read each model at its own settings' bars, not at bars searched on the tuning crops "
                        "(an ensemble's are searched all the same)")
    w = sub.add_parser("write", help="write an ensemble of model folders as the committed model")
    w.add_argument("folders", nargs="+", help="model folders, the first's weights become landing_net.npz")
    w.add_argument("--tune-on", required=True)
    w.add_argument("--out-dir", help="companion/vision/models by default")
    w.add_argument("--combine", default="product", choices=("product", "mean"))
    w.add_argument("--rivals", type=float, nargs="+", help="the rival bars tried (learn_landings.RIVALS by default)")
    w.add_argument("--max-wrong", type=float, default=0.002)
    args = ap.parse_args()
    {"cache": cache, "compare": compare, "write": write}[args.step](args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
