"""Where the drink reader's doubt comes from: of the readings the default reader (``checked-set``)
leaves unsure, which the rules named wrong (and how: the shape, the colour, both), which they
named right and the check asked about anyway, and how often and how surely the set network
names them right. What made the 43rd session look for one of the rules' two drinks named from
a lower bar (docs/performance.md, "One of the rules' two named from a lower bar").

    .venv/bin/python benchmarks/drink_doubts.py --family train --seeds 1500012 --tables 12 --images 10

Development and training family only. The evaluation family is only ever scored
(benchmarks/vision.py): reading its doubts one by one would tune on it, so it is refused here.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import collections  # noqa: E402
import copy  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from companion.sim.looks import Look  # noqa: E402
from companion.sim.render import Renderer  # noqa: E402
from companion.sim.scenes import DIFFICULTIES, render_sample  # noqa: E402
from companion.vision.checked import SET_PATH, alone_model, check_set, drink_index, drink_name, pixel_opinion  # noqa: E402
from companion.vision.drinks import identify_analysis  # noqa: E402
from companion.vision.repeats import doubt_repeats  # noqa: E402
from companion.vision.segment import FrameError, analyse  # noqa: E402
from vision import calibrated, match  # noqa: E402

NET_BINS = (0.0, 0.5, 0.8, 0.9, 0.95, 0.98, 0.99, 0.999, 1.01)


def kind_of_mistake(truth: str, got: str) -> str:
    """"right", or what a name got wrong: "shape" (the right colour), "colour" (the right shape), "both"."""
    if got == truth:
        return "right"
    (tc, ts), (gc, gs) = truth.split("-", 1), got.split("-", 1)
    return "shape" if tc == gc else "colour" if ts == gs else "both"


def doubts_of_photo(image: np.ndarray, truth: list[dict], profile, model) -> list[dict]:
    """The photo's drinks that the default reader left unsure: the truth, the rules' name and
    whether the rules doubted it themselves, the set network's top name and its probability."""
    an = analyse(image, profile)
    kept = {}
    identify_analysis(an, profile, lambda readings, _an, _p: kept.update(pieces=copy.deepcopy(readings)))
    rules = kept.get("pieces", [])
    final = doubt_repeats(check_set(copy.deepcopy(rules), an, profile, model))
    judged = [j for j, d in enumerate(rules) if "_f" in d and drink_index(d) is not None]
    rows = dict(zip(judged, pixel_opinion([rules[j] for j in judged], an, profile, model))) if judged else {}
    out = []
    for t, j in match(final, truth)[0]:
        if j is None or not final[j]["unsure"]:
            continue
        r, row = rules[j], rows.get(j)
        out.append({"truth": t["id"], "rules": f"{r['color']}-{r['shape']}", "rules_doubted": bool(r["unsure"]),
                    "net": None if row is None else drink_name(int(np.argmax(row[:36]))),
                    "net_p": None if row is None else float(row[:36].max())})
    return out


def report(doubts: list[dict], drinks: int, title: str) -> None:
    print(f"\n### {title}: {len(doubts)} of {drinks} drinks unsure")
    if not doubts:
        return
    print("\n| the rules' name | doubted by the rules | asked by the check | the network right |")
    print("|---|---|---|---|")
    for kind in ("right", "shape", "colour", "both"):
        mine = [d for d in doubts if kind_of_mistake(d["truth"], d["rules"]) == kind]
        print(f"| {kind}{'' if kind == 'right' else ' wrong'} | "
              f"{sum(d['rules_doubted'] for d in mine)} | {sum(not d['rules_doubted'] for d in mine)} | "
              f"{sum(d['net'] == d['truth'] for d in mine)} of {len(mine)} |")
    print("\n| the network's top probability | unsure readings | the network right | the rules right |")
    print("|---|---|---|---|")
    for lo, hi in zip(NET_BINS, NET_BINS[1:]):
        mine = [d for d in doubts if d["net_p"] is not None and lo <= d["net_p"] < hi]
        if mine:
            print(f"| {lo:g}-{min(hi, 1.0):g} | {len(mine)} | {100 * np.mean([d['net'] == d['truth'] for d in mine]):.1f} % | "
                  f"{100 * np.mean([d['rules'] == d['truth'] for d in mine]):.1f} % |")
    shapes = collections.Counter((d["truth"].split("-", 1)[1], d["rules"].split("-", 1)[1]) for d in doubts
                                 if kind_of_mistake(d["truth"], d["rules"]) == "shape")
    colours = collections.Counter((d["truth"].split("-")[0], d["rules"].split("-")[0]) for d in doubts
                                  if kind_of_mistake(d["truth"], d["rules"]) == "colour")
    print("\nshapes the rules took for others (truth -> read):",
          ", ".join(f"{a} -> {b} {n}" for (a, b), n in shapes.most_common(6)) or "none")
    print("colours the rules took for others:", ", ".join(f"{a} -> {b} {n}" for (a, b), n in colours.most_common(6)) or "none")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--family", choices=["dev", "train"], default="train",
                    help="dev or the training family (the evaluation family is only ever scored: benchmarks/vision.py)")
    ap.add_argument("--seeds", type=int, default=1_500_012, help="the first table's seed")
    ap.add_argument("--tables", type=int, default=4, choices=range(1, 101), metavar="1..100")
    ap.add_argument("--images", type=int, default=10, choices=range(1, 201), metavar="1..200", help="photos per table and difficulty")
    args = ap.parse_args(argv)
    import cv2
    cv2.setNumThreads(1)
    model = alone_model(str(SET_PATH))
    every, drinks_in_all = [], 0
    for difficulty in DIFFICULTIES:
        doubts, drinks = [], 0
        for seed in range(args.seeds, args.seeds + args.tables):
            look = Look.from_seed(seed, family=args.family)
            profile = calibrated(look, seed)
            if profile is None:
                continue
            renderer, rng = Renderer(look), np.random.default_rng([seed, 31337])
            render_sample(renderer, rng, difficulty)          # the benchmark's unscored warm-up photo: the same photos
            for _ in range(args.images):
                image, truth = render_sample(renderer, rng, difficulty)
                drinks += len(truth)
                try:
                    doubts += doubts_of_photo(image, truth, profile, model)
                except FrameError:
                    continue                                 # refused whole: its drinks are missed, not doubted
        report(doubts, drinks, difficulty)
        every += doubts
        drinks_in_all += drinks
    report(every, drinks_in_all, "all four difficulties")
    return 0


if __name__ == "__main__":
    sys.exit(main())
