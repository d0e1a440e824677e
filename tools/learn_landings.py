"""Train the landing reader's network (companion/vision/landing_net.py) on rendered landing scenes.

Two steps, two interpreters:

    # 1. render looks, calibrate each from its own photo of the mat (as a table would), render
    #    scenes, cut every candidate patch of every colour as the reader does, keep each crop with
    #    its truth (the project's venv; one process):
    .venv/bin/python tools/learn_landings.py render --family varied --seeds 0:400 --scenes 4 --out /tmp/land-varied.npz
    .venv/bin/python tools/learn_landings.py render --family dev --seeds 10000:10060 --scenes 4 --out /tmp/land-dev.npz
    # 2. train with PyTorch (never a run-time dependency), set the temperature and the bars of a
    #    sure reading on the held-out set, write models/landing_net.npz and landing_model.json:
    .train-venv/bin/python tools/learn_landings.py train /tmp/land-varied.npz --tune-on /tmp/land-dev.npz

A crop's truth: the drink of its colour in the scene when the candidate's middle is on (or
within ``MATCH_MM`` of) that drink's outline as the calibrated camera lays it on the table: its
spot and its middle on the table as an offset in the crop's turned frame; otherwise ``none``
(a coin, a card, a shadow or another drink read as that colour). Every colour is cut in every
scene (a colour not in the scene: its patches are all ``none``, as a drink asked for that is
still in the tower). Each crop also carries the colours asked with it (``--features also``): the
scene's drinks (in one scene of five, ``LEFT_OVER_SHARE``, one of them left over, not asked) and,
when the queried colour is not there, it too (thrown, still in the tower). The eval family
(benchmarks/landings.py) is never rendered here.
"""
from __future__ import annotations

import argparse
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
from net_widths import conv_widths, hidden_width  # noqa: E402
from companion.vision.landing_crops import CHANNELS  # noqa: E402
from companion.vision.landing_crops import LAYOUTS  # noqa: E402  (--channels: a name, its channels)
from companion.vision.landing_crops import ALSO_FEATURES, COLOUR_FEATURES, FEATURES  # noqa: E402
from landing_torch import exported, load_into, torch_net  # noqa: E402,F401  (the network, its export)
from landing_bars import RIVALS, bars_given, decide, score, second_given  # noqa: E402  (the bars, read and given)

FEATURE_SETS = {"base": FEATURES, "colour": FEATURES + COLOUR_FEATURES,     # --features: the numbers a network reads
                "also": FEATURES + ALSO_FEATURES, "colour_also": FEATURES + COLOUR_FEATURES + ALSO_FEATURES}
LEFT_OVER_SHARE = 0.2       # scenes with a drink on the table the game did not ask about (--features also)

MATCH_MM = 4.0
SPOT_INDEX = {"slot": 0, "crate": 1, "outside": 2}
NONE = 3


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
    from companion.sim.landing_layouts import compose, random_wants
    from companion.sim.landing_render import LandingLook, LandingRenderer
    from companion.vision.landing_calibrate import LandingCalibrationError, calibrate_landing
    from companion.vision.landing_crops import candidates, frame_projector, to_crop, top_view
    from companion.vision.landing_net import pixels_of
    from companion.vision.landings import LandingReader

    cv2.setNumThreads(1)
    pixels = pixels_of({"pixels": args.pixels})
    lo, hi = (int(v) for v in args.seeds.split(":"))
    if args.family not in ("varied", "dev"):
        raise SystemExit("only varied and dev looks are rendered for training (eval is only ever scored)")
    crops, feats, classes, offsets, looks, groups, places = [], [], [], [], [], [], []
    group_spot, group_distance = [], []     # per asked drink (scene x colour): its true spot (-1: not there)
    refused, t0, done = 0, time.time(), 0
    end = lo                                # the looks done are seeds lo:end (a budget stops early)
    for seed in range(lo, hi):
        if args.budget and time.time() - t0 > args.budget:
            break
        end = seed + 1
        look = LandingLook.from_seed(seed, args.family)
        rng = np.random.default_rng([seed, 4242])
        renderer = LandingRenderer(look)
        try:
            cal = calibrate_landing(renderer.calibration_picture(rng))
        except LandingCalibrationError:
            refused += 1
            continue
        reader = LandingReader(cal, learned=False)      # only its top view's maps
        camera = cal.camera_position
        for _ in range(args.scenes):
            try:
                scene = compose(random_wants(rng, (40, 330)), rng, crates=random_crates(rng, look), scale=look.drink_size)
            except ValueError:
                continue
            frame = renderer.render(scene, rng, renderer.random_loose(scene, rng, int(rng.integers(0, 4))))
            size = (frame.shape[1], frame.shape[0])
            view = top_view(frame, reader._top_maps(size), cal.white_bgr, camera, frame_projector(cal, size), pixels)
            present = {d.drink.partition("-")[0]: d.drink for d in scene.drinks}
            # which drinks the game asked about (--features also): the scene's own, one of them now and
            # then a left-over drink nobody asked about; a colour queried that is not there was asked
            # too (stuck in the tower). Its own rng: the crops and scenes stay the recipe's
            asked_rng = np.random.default_rng([seed, 4343, len(group_spot)])
            left_over = sorted(present)[int(asked_rng.integers(0, len(present)))] \
                if len(present) > 1 and asked_rng.random() < LEFT_OVER_SHARE else None
            for colour in COLOURS:
                name = present.get(colour.value) or f"{colour.value}-{SHAPES[int(rng.integers(0, len(SHAPES)))].value}"
                also = tuple(c for c in present if c != left_over) + (colour.value,)
                first = bool(rng.random() < 0.5)
                placed = next((d for d in scene.drinks if d.drink == name), None)
                group_spot.append(SPOT_INDEX[spot_of(scene, placed)] if placed else -1)
                group_distance.append(distance_of(placed) if placed else 0)
                for mirror, cand in ((m, c) for copy in range(args.copies) for m in [first != bool(copy % 2)]
                                     for c in candidates(view, name, mirror=m, jitter=rng.normal(0, 1.5, 2),
                                                         channels=LAYOUTS[args.channels], also=also)):
                    k, middle = label(cand, scene, name, look, camera)
                    crops.append(cand.crop)
                    feats.append(cand.features)
                    classes.append(k)
                    offsets.append(to_crop(middle, cand.centre, cand.basis, mirror) if k != NONE else np.zeros(2))
                    looks.append(seed)
                    groups.append(len(group_spot) - 1)
                    places.append([*cand.centre, *cand.basis[1], float(mirror)])
        done += 1
        if done % 20 == 0:
            print(f"{done} looks, {len(crops)} crops, {refused} refused, {time.time() - t0:.0f} s", flush=True)
    np.savez_compressed(args.out, crops=np.array(crops, np.uint8), feats=np.array(feats, np.float32),
                        classes=np.array(classes, np.int64), offsets=np.array(offsets, np.float32),
                        looks=np.array(looks, np.int64), groups=np.array(groups, np.int64),
                        places=np.array(places, np.float32).reshape(-1, 5),
                        group_spot=np.array(group_spot, np.int64), group_distance=np.array(group_distance, np.int64),
                        pixels=np.array(args.pixels))
    print(f"{args.out}: seeds {lo}:{end}, {done} looks ({refused} calibrations refused), {len(crops)} crops, "
          f"classes {np.bincount(np.array(classes, np.int64), minlength=4).tolist()}, {time.time() - t0:.0f} s")


def load(paths, channels: tuple[str, ...] | None = None, whole: bool = False) -> dict:
    """Renders joined (their groups apart), their crops cut to ``channels`` (the top view's by
    default; ``whole``: not cut): a render's crops hold its layout's channels, the top view's first."""
    parts = [dict(np.load(p)) for p in paths]
    kinds = {str(p.pop("pixels", "rules")) for p in parts}       # renders made before --pixels: the rules'
    if len(kinds) > 1:
        raise SystemExit(f"{', '.join(map(str, paths))}: crops cut with different pixel classes ({sorted(kinds)})")
    out, groups_seen = {"pixels": kinds.pop()}, 0
    for part in parts:
        part["groups"] = part["groups"] + groups_seen
        groups_seen += len(part["group_spot"])
    for key in parts[0]:
        out[key] = np.concatenate([p[key] for p in parts])
    channels = channels or CHANNELS
    if whole:
        return out
    if out["crops"].shape[-1] < len(channels):
        raise SystemExit(f"{paths[0]} holds {out['crops'].shape[-1]} channels, not {len(channels)}: render it with --channels")
    out["crops"] = np.ascontiguousarray(out["crops"][..., :len(channels)])
    return out


def own_features(feats: np.ndarray, names: tuple[str, ...]) -> np.ndarray:
    """A render's numbers cut to ``names`` (a render made before the colour carries FEATURES only)."""
    from companion.vision.landing_crops import numbers
    try:
        return numbers(feats, names)
    except ValueError as e:
        raise SystemExit(f"{e}: render it again") from None


def train(args) -> None:
    import torch
    from companion.vision.landing_net import OFFSET_MM, SPOTS

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    channels = LAYOUTS[args.channels]
    data = load(args.data, channels)
    tune = load([args.tune_on], channels)
    args.feature_names = FEATURE_SETS[args.features]
    if data["pixels"] != tune["pixels"]:
        raise SystemExit(f"the training crops were cut with {data['pixels']} pixel classes, the tuning crops with {tune['pixels']}")
    data["feats"], tune["feats"] = (own_features(d["feats"], args.feature_names) for d in (data, tune))
    print(f"training on {len(data['classes'])} crops {np.bincount(data['classes'], minlength=4).tolist()}, "
          f"tuning on {len(tune['classes'])}", flush=True)
    mean = data["feats"].mean(0)
    std = np.maximum(data["feats"].std(0), 1e-3)
    net = torch_net(args.widths, args.hidden, len(channels), len(args.feature_names), args.norm == "batch")
    if args.init:
        if args.norm == "batch":
            raise SystemExit("--init goes on from folded weights: train a batch-normalised network from nothing")
        with np.load(args.init) as w:
            load_into(net, w)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    n = len(data["classes"])
    per_epoch = int((data["classes"] != NONE).sum() + args.none_share * (data["classes"] == NONE).sum())
    steps = args.epochs * (per_epoch // args.batch + 2)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    crops = torch.from_numpy(data["crops"])
    feats = torch.from_numpy((data["feats"] - mean) / std)
    classes = torch.from_numpy(data["classes"])
    targets = torch.from_numpy(data["offsets"] / OFFSET_MM)
    t0 = time.time()
    positives = np.flatnonzero(data["classes"] != NONE)
    negatives = np.flatnonzero(data["classes"] == NONE)
    for epoch in range(args.epochs):
        # every drink's crop each epoch, a fresh share of the (mostly easy) other patches
        keep = negatives[rng.random(len(negatives)) < args.none_share]
        order = torch.from_numpy(rng.permutation(np.concatenate([positives, keep])))
        total = 0.0
        for s in range(0, len(order), args.batch):
            b = order[s:s + args.batch]
            x = crops[b].float().permute(0, 3, 1, 2) / 255.0
            # the lamp's colour as the balance left it: each colour channel scaled a little,
            # alike in the top view and the frame (one lamp, one balance)
            # and (--exposure, --noise) the paper's white misjudged, a noisier sensor
            gain = torch.exp(torch.randn(len(b), 3, 1, 1) * 0.06 + torch.randn(len(b), 1, 1, 1) * args.exposure)
            noise = torch.rand(len(b), 1, 1, 1) * args.noise

            def looked(c):
                return (c * gain + torch.randn_like(c) * noise).clamp(0, 1)
            # a second colour crop (the frame's, or the fine one: channels 6-8) is lit alike
            x = torch.cat([looked(x[:, :3]), x[:, 3:6]] + ([looked(x[:, 6:9]), x[:, 9:]] if x.shape[1] > 6 else []), 1)
            flip = torch.rand(len(b)) < 0.5
            x[flip] = x[flip].flip(3)
            y = targets[b].clone()
            y[flip, 0] *= -1
            out = net(x, feats[b])
            k = classes[b]
            loss = torch.nn.functional.cross_entropy(out[:, :len(SPOTS)], k)
            pos = k != NONE
            if pos.any():
                log_b = out[pos, -1].clamp(-6, 3)
                err = (out[pos, len(SPOTS):len(SPOTS) + 2] - y[pos]).abs().sum(1)
                loss = loss + 0.5 * (err / torch.exp(log_b) + 2 * log_b).mean() + 0.5 * err.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            if sched.last_epoch < steps - 1:
                sched.step()
            total += float(loss.detach()) * len(b)
        print(f"epoch {epoch + 1}: loss {total / len(order):.4f}, {time.time() - t0:.0f} s", flush=True)
    net.eval()
    weights = exported(net, mean, std)
    tune_bars(weights, tune, args, {"trained_on": int(n), "epochs": args.epochs, "seed": args.seed,
                                    "data": [Path(p).name for p in args.data],
                                    **({"widths": list(args.widths)} if args.widths else {}),
                                    **({"hidden": args.hidden} if args.hidden else {}),
                                    **({"norm": args.norm} if args.norm != "none" else {})})


def tune_bars(weights: dict, tune: dict, args, extra: dict | None = None) -> None:
    """The temperature (the held-out spots' likeliest) and the bars of a sure reading (the most
    right with at most ``--max-wrong`` sure mistakes on the held-out drinks); writes the model."""
    from companion.vision.landing_net import SPOTS, LandingModel, LandingNet, save
    base = {"spots": list(SPOTS), "features": list(args.feature_names), "channels": list(LAYOUTS[args.channels]),
            **({"pixels": tune["pixels"]} if tune["pixels"] != "rules" else {})}
    model = LandingModel(LandingNet(weights), base)
    logits = np.concatenate([model.net.raw(tune["crops"][s:s + 512], tune["feats"][s:s + 512])
                             for s in range(0, len(tune["classes"]), 512)])[:, :len(SPOTS)].astype(np.float64)

    def nll(t):
        z = logits / t
        z = z - z.max(1, keepdims=True)
        return float(-(z[np.arange(len(z)), tune["classes"]] - np.log(np.exp(z).sum(1))).mean())
    temperature = round(float(min(np.arange(0.5, 3.01, 0.1), key=nll)), 2)
    model = LandingModel(LandingNet(weights), {**base, "temperature": temperature})
    decided = decide(model, tune)
    best = None
    # --bars: one setting given, not searched (the search on a few hundred drinks is a lottery:
    # docs/performance.md, 50th session); what it reads on the tuning drinks is reported all the same
    fixed = getattr(args, "bars", None)
    second = getattr(args, "second_bars", None)     # the second way's bars: given, never searched
    for rival in ((fixed[2],) if fixed else RIVALS):
        for sure in ((fixed[0],) if fixed else (0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999)):
            for scale in ((fixed[1],) if fixed else (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 7.0, 10.0)):
                c = score(decided, tune, sure, scale, rival, second)
                drinks = max(1, c["right"] + c["sure_wrong"] + c["unsure"] + c["not_seen"])
                # next to no sure mistakes first, then the most right (a tie: the stricter bars)
                key = (c["sure_wrong"] + c["phantom_sure"] <= args.max_wrong * drinks, c["right"], -c["sure_wrong"])
                if best is None or key > best[0]:
                    best = (key, sure, scale, rival, c)
    _, sure, scale, rival, c = best
    settings = {**base, "temperature": temperature, "sure": sure, "sure_scale_mm": scale, "rival": rival,
                **({"sure_drink": second[0], "sure_share": second[1]} if second else {}),
                "tuned_on": {"data": Path(args.tune_on).name, **{k: int(v) for k, v in c.items()},
                             **({"bars": "given"} if fixed else {})}, **(extra or {})}
    out = Path(args.out_dir) if args.out_dir else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
        save(settings, weights, out / "landing_model.json", out / "landing_net.npz")
    else:
        save(settings, weights)
    print(f"temperature {temperature}, sure {sure}, scale {scale} mm, rival {rival}: held-out {c}", flush=True)


def retune(args) -> None:
    from companion.vision.landing_net import NET_PATH
    net_path = Path(args.out_dir) / "landing_net.npz" if args.out_dir else NET_PATH
    with np.load(net_path) as w:
        weights = {k: w[k] for k in w.files}
    settings_path = net_path.with_name("landing_model.json")
    import json
    old = json.loads(settings_path.read_text()) if settings_path.exists() else {}
    keep = {k: old[k] for k in ("trained_on", "epochs", "seed", "data", "widths", "hidden", "norm") if k in old}
    layouts = {v: k for k, v in LAYOUTS.items()}
    args.channels = layouts.get(tuple(old.get("channels", CHANNELS)), "top")
    args.feature_names = tuple(old.get("features", FEATURES))
    tune = load([args.tune_on], LAYOUTS[args.channels])
    tune["feats"] = own_features(tune["feats"], args.feature_names)
    tune_bars(weights, tune, args, keep)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    r = sub.add_parser("render", help="render looks and cut their candidates' crops with their truth")
    r.add_argument("--family", choices=("varied", "dev"), default="varied")
    r.add_argument("--seeds", default="0:100", help="first:last (last not included)")
    r.add_argument("--scenes", type=int, default=4, help="scenes per look")
    r.add_argument("--copies", type=int, default=1, help="crops cut of each candidate (mirrored in turn, jittered)")
    r.add_argument("--budget", type=float, default=0, help="stop after this many seconds (0: no limit)")
    r.add_argument("--channels", choices=tuple(LAYOUTS), default="top", help="the crops' channels (landing_crops.LAYOUTS)")
    r.add_argument("--pixels", choices=("rules", "learned"), default="rules",
                   help="the pixel classes the candidates are cut with (landing_pixels.py: learned)")
    r.add_argument("--out", required=True)
    t = sub.add_parser("train", help="train with PyTorch, tune the bars, write the model")
    t.add_argument("data", nargs="+")
    t.add_argument("--tune-on", required=True, help="held-out crops (another render) to set the bars on")
    t.add_argument("--epochs", type=int, default=12)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--batch", type=int, default=64)
    t.add_argument("--none-share", type=float, default=0.4, help="share of the not-this-drink crops each epoch")
    t.add_argument("--init", help="go on from an earlier landing_net.npz")
    t.add_argument("--exposure", type=float, default=0.0, help="sd of a crop's brightness varied in training (log)")
    t.add_argument("--noise", type=float, default=0.0, help="the most pixel noise added in training (0-1 levels)")
    t.add_argument("--channels", choices=tuple(LAYOUTS), default="top", help="the channels the network reads")
    t.add_argument("--features", choices=tuple(FEATURE_SETS), default="base",
                   help="the numbers the network reads: base; colour (the asked colour too); also (the other "
                        "colours asked with it); colour_also (both)")
    t.add_argument("--widths", type=conv_widths(4),
                   help="the four convolutions' channels (landing_net.WIDTHS by default), e.g. 24,48,64,128")
    t.add_argument("--hidden", type=hidden_width, help="the hidden layer's width (landing_net.HIDDEN by default)")
    t.add_argument("--norm", choices=("none", "batch"), default="none",
                   help="batch-normalise each convolution in training (folded into its weights at export)")
    t.add_argument("--out-dir", help="write the model here, not into companion/vision/models")
    t.add_argument("--max-wrong", type=float, default=0.002, help="sure mistakes allowed on the held-out drinks (share)")
    t.add_argument("--bars", type=bars_given, help="sure,scale_mm,rival: these bars, not the ones the rule finds")
    t.add_argument("--second-bars", type=second_given, help="drink,share: the second way to be sure (is_sure)")
    u = sub.add_parser("tune", help="set the temperature and the bars of an existing model on held-out crops")
    u.add_argument("--tune-on", required=True)
    u.add_argument("--out-dir", help="the model's folder (companion/vision/models by default)")
    u.add_argument("--max-wrong", type=float, default=0.002)
    u.add_argument("--bars", type=bars_given, help="sure,scale_mm,rival: these bars, not the ones the rule finds")
    u.add_argument("--second-bars", type=second_given, help="drink,share: the second way to be sure (is_sure)")
    args = ap.parse_args()
    if args.step == "render":
        render(args)
    elif args.step == "tune":
        retune(args)
    else:
        train(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
