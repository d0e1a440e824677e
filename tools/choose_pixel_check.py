"""Choose how the pixel network alone checks the rules (``scorer="checked-pixels"``,
companion/vision/checked.py), on held-out training-family tables, and write the choice into
the model's file.

    .venv/bin/python tools/choose_pixel_check.py [--model companion/vision/models/drink_pixels_alone.npz]

The network (tools/learn_drink_pixels.py --variant pixels --out ...: the pixels and the side
numbers only, neither the rules' reading nor the feature scorer's view) is asked about every
piece of tools/learn_drink_pixels.py's held-out training-family tables (HELD_OUT: never trained
on, never used for its temperature or bar; never the evaluation family) from the crops cached
there. A sure rules' reading stays sure where the network's top name is the rules' name, or
where it gives the rules' name at least ``agree``; each ``agree`` of AGREES (None: the top
name only) is measured with the second look's fitted readings left to the rules and judged
too, the crop read once and also with its mirror image (the two probabilities averaged), and
of those that score (correct minus ten times wrong, in % of the drinks) at least as the rules
at every difficulty, the one with the best score over all the held-out pieces is kept
(``chosen``): ``settings["check"] = {"agree",
"fitted", "mirror", "held_out"}``. The rules, the learned scorer's check and the network as a scorer of
its own are printed beside it, on the same pieces. The development family's temperature tables
are printed for information only (the network's temperature and bar were fitted on them: not
held out, not used to choose).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import copy  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from types import SimpleNamespace  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import learn_drink_pixels as pixels_tool  # noqa: E402
import learn_drinks as base  # noqa: E402

AGREES = (None, 0.3, 0.2, 0.1, 0.05, 0.03, 0.02, 0.01, 0.005, 0.002)


def photo_probabilities(tabs: list[dict], model, mirror: bool) -> dict[tuple[int, int], np.ndarray]:
    """The network's probabilities (n, 37) of every piece of every photo, from the cached crops."""
    from companion.vision.checked import pixel_opinion
    out = {}
    for tab in tabs:
        for k, ph in enumerate(tab["photos"]):
            if ph["pieces"]:
                an = SimpleNamespace(sharpness=ph["sharpness"])
                out[(tab["seed"], k)] = pixel_opinion(ph["pieces"], an, tab["profile"], model, mirror, ph["crops"])
    return out


def measured(tabs: list[dict], probs: dict, model, ways: dict) -> dict:
    """learn_drinks.measure's table for each way of naming (its name -> ("check", agree,
    fitted, mirror), ("both", ...: the learned scorer's check first), ("pixels",) or a
    learn_drinks way), on the same pieces; ``probs``: by mirror, photo_probabilities'."""
    from companion.vision.checked import check, check_learned
    from companion.vision.pixel_scorer import rescore
    from companion.vision.repeats import doubt_repeats
    plain = base.readings_of
    index = {id(ph): (tab["seed"], k) for tab in tabs for k, ph in enumerate(tab["photos"])}

    def readings_of(tab, photo, how, _model=None):
        way = ways[how]
        if way[0] not in ("check", "pixels", "learned-check", "both"):
            return plain(tab, photo, way[0])
        pieces = copy.deepcopy(photo["pieces"])
        if not pieces:
            return []
        p = probs[way[3] if len(way) > 3 else False][index[id(photo)]]
        an = SimpleNamespace(sharpness=photo["sharpness"])
        if way[0] in ("learned-check", "both"):
            check_learned(pieces, an, tab["profile"])
        if way[0] in ("check", "both"):
            at = {id(d): k for k, d in enumerate(pieces)}
            check(pieces, an, tab["profile"], lambda todo, *_: p[[at[id(d)] for d in todo]], "pixels",
                  agree=way[1], judge_fitted=way[2])
        if way[0] == "pixels":
            rescore(pieces, an, tab["profile"], model, raw=photo["crops"])
        return doubt_repeats(pieces)

    base.readings_of = readings_of
    try:
        return {how: base.measure(tabs, how) for how in ways}
    finally:
        base.readings_of = plain


def score(r: dict) -> float:
    return r["correct%"] - 10 * r["wrong%"]


MIRROR_GAIN = 0.5     # points of score the mirror image must add over all to be worth the network twice


def chosen(res: dict, checks: list[str], ways: dict) -> str:
    """The check kept: of those that score at least the rules' at every difficulty (what a
    new default must do on the evaluation family), the best over all the held-out pieces (any
    check when none does); one that reads the crop mirrored too only when it beats the best
    without by MIRROR_GAIN; then more correct."""
    rules = res["rules"]
    fair = [h for h in checks if all(score(res[h][d]) >= score(rules[d]) - 1e-9 for d in base.DIFFICULTIES)] or checks

    def merit(h):
        return (round(score(res[h]["all"]) - (MIRROR_GAIN if ways[h][3] else 0.0), 6), res[h]["all"]["correct%"])
    return max(fair, key=merit)


def label(agree, fitted, mirror) -> str:
    return (f"checked-pixels, agree {'top only' if agree is None else agree}"
            + (", fitted judged" if fitted else "") + (", mirrored too" if mirror else ""))


def main(argv=None) -> int:
    from companion.vision.checked import ALONE_PATH
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=str(ALONE_PATH), help="the pixel network alone (its settings are rewritten)")
    ap.add_argument("--dry-run", action="store_true", help="measure and print, write nothing")
    args = ap.parse_args(argv)
    import cv2
    cv2.setNumThreads(1)
    import logging
    logging.basicConfig(level=logging.ERROR)
    from companion.vision.pixel_scorer import load, save
    t0 = time.perf_counter()
    model = load(args.model)
    if model.features:
        raise SystemExit(f"{args.model}: takes the feature scorer's view; the check needs the pixels alone")
    held = pixels_tool.data(pixels_tool.HELD_OUT, base.PHOTOS, 0)
    probs = {m: photo_probabilities(held, model, m) for m in (False, True)}
    ways = {"rules": ("rules",), "checked (learned)": ("learned-check",), "pixels alone": ("pixels",)}
    for mirror in (False, True):
        for fitted in (False, True):
            for agree in AGREES:
                ways[label(agree, fitted, mirror)] = ("check", agree, fitted, mirror)
    res = measured(held, probs, model, ways)
    seeds = ", ".join(f"{s.start}..{s[-1]}" for _, s in pixels_tool.HELD_OUT)
    base.report(f"held-out training-family tables {seeds}, {base.PHOTOS} photos per difficulty", res)
    print("\n| way | score (correct - 10 x wrong), all | per difficulty |")
    print("|---|---|---|")
    for how, r in res.items():
        per = " / ".join(f"{score(r[d]):.1f}" for d in base.DIFFICULTIES)
        print(f"| {how} | {score(r['all']):.2f} | {per} |")
    best = chosen(res, [h for h, w in ways.items() if w[0] == "check"], ways)
    _, agree, fitted, mirror = ways[best]
    print(f"\nkept: {best}", flush=True)
    both = "checked by both (learned, then pixels as kept)"
    res_both = measured(held, probs, model, {best: ways[best], both: ("both", agree, fitted, mirror)})
    base.report("for information: the learned scorer's check and the kept pixels' check together", res_both)
    print(f"\nscore, all: {both}: {score(res_both[both]['all']):.2f} (kept alone: {score(res[best]['all']):.2f})")
    dev = [t for t in pixels_tool.data(pixels_tool.TEMPER, base.TRAIN_PHOTOS, base.HARSH) if t["family"] == "dev"]
    if dev:
        dev_ways = {"rules": ("rules",), best: ways[best]}
        base.report("for information only: the development family's temperature tables (not held out)",
                    measured(dev, {mirror: photo_probabilities(dev, model, mirror)}, model, dev_ways))
    if not args.dry_run:
        with np.load(args.model) as data:
            weights = {k: data[k] for k in data.files if k != "settings"}
        settings = dict(model.settings)
        settings["check"] = {"agree": agree, "fitted": fitted, "mirror": mirror,
                             "held_out": {h: {k: round(res[h]["all"][k], 2) for k in ("correct%", "wrong%", "unsure%")}
                                          for h in ("rules", "checked (learned)", best)},
                             "held_out_tables": [[fam, s.start, s[-1]] for fam, s in pixels_tool.HELD_OUT]}
        save(Path(args.model), weights, settings)
        print(f"wrote the check's settings into {args.model}: {json.dumps(settings['check']['held_out'])}")
    print(f"{time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
