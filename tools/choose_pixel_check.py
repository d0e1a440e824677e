"""Choose how the pixel network alone checks the rules (``scorer="checked-pixels"``,
companion/vision/checked.py), on held-out training-family tables, and write the choice into
the model's file.

    .venv/bin/python tools/choose_pixel_check.py [--model companion/vision/models/drink_pixels_alone.npz] [--test]

The network (tools/learn_drink_pixels.py --variant pixels --out ...: the pixels and the side
numbers only, neither the rules' reading nor the feature scorer's view) is asked about every
piece of the held-out tables (``held_out_tables``: tools/learn_drink_pixels.py's held-out
training-family tables, never trained on, and the training family's temperature tables, with
their harsher photos, which only fitted the network's temperature; never the evaluation
family) from the crops cached there. A sure rules' reading stays sure where the network's top
name is the rules' name, or where it gives the rules' name at least ``agree``; each ``agree``
of AGREES (None: the top name only) is measured with the second look's fitted readings left to
the rules and judged too, the crop read once and also with its mirror image (the two
probabilities averaged). Then the guard against phantoms (``checked.NoDrink``): a sure reading
the network finds at least a bar of NO_DRINK_BARS likely to be no single drink is asked, for
the fitted readings only or for all. Each time, of those that score (correct minus ten times
wrong, a sure extra reading counted as a wrong one, in % of the drinks) at least as the rules
at every difficulty, and read the development family's temperature tables within DEV_SLACK
points of the rules' correct, the one with the best score over all the held-out pieces is kept
(``chosen``): ``settings["check"] = {"agree", "fitted", "mirror", "no_drink", "held_out"}``.
The rules, the learned scorer's check and the network as a scorer of its own are printed beside
it, on the same pieces. ``--test`` then measures the kept check on TEST, training-family tables
used for nothing else (``--before OTHER.npz``: another model's own check beside it).
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
NO_DRINK_BARS = (0.7, 0.5, 0.3, 0.2, 0.1, 0.05)


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
    """drink_measure.measure's table for each way of naming (its name -> ("check", agree,
    fitted, mirror[, guard[, naming]]), ("both", ...: the learned scorer's check first),
    ("pixels",) or a learn_drinks way), on the same pieces; ``probs``: by mirror,
    photo_probabilities'."""
    from companion.vision.checked import check, check_learned
    from companion.vision.pixel_scorer import rescore
    from companion.vision.repeats import doubt_repeats
    index = {id(ph): (tab["seed"], k) for tab in tabs for k, ph in enumerate(tab["photos"])}

    def readings_of(tab, photo, how, _model=None):
        way = ways[how]
        if way[0] not in ("check", "pixels", "learned-check", "both"):
            return base.readings_of(tab, photo, way[0])
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
                  agree=way[1], judge_fitted=way[2], no_drink=way[4] if len(way) > 4 else None,
                  naming=way[5] if len(way) > 5 else None)
        if way[0] == "pixels":
            rescore(pieces, an, tab["profile"], model, raw=photo["crops"])
        return doubt_repeats(pieces)

    return {how: base.measure(tabs, how, read=readings_of) for how in ways}


EXTRAS_COUNT = True      # --plain: False (the choice as the committed checked-pixels' was made)


def score(r: dict) -> float:
    """Correct minus ten times wrong, in % of the drinks; a sure extra reading (a drink taken
    without asking where there is none) counts as a wrong one (not with --plain)."""
    extra = 100.0 * r["extra_sure"] / max(r["drinks"], 1) if EXTRAS_COUNT else 0.0
    return r["correct%"] - 10 * (r["wrong%"] + extra)


MIRROR_GAIN = 0.5     # points of score the mirror image must add over all to be worth the network twice


# points of correct a check may cost on the development family's tables, per difficulty (as a new
# default may on the benchmark's)
DEV_SLACK = 1.0


def chosen(res: dict, checks: list[str], ways: dict, dev: dict | None = None) -> str:
    """The check kept: of those that score at least the rules' at every difficulty (what a
    new default must do on the evaluation family) and (``dev``: their results on the
    development family's tables) read those within DEV_SLACK points of the rules' correct at
    every difficulty (a new default must stay within 1.0 there), the best over all the held-out
    pieces (any check when none does); one that reads the crop mirrored too only when it beats
    the best without by MIRROR_GAIN; then more correct."""
    rules = res["rules"]

    def kind_to_dev(h):
        return dev is None or all(dev[h][d]["correct%"] >= dev["rules"][d]["correct%"] - DEV_SLACK - 1e-9
                                  for d in base.DIFFICULTIES)
    fair = [h for h in checks if kind_to_dev(h)
            and all(score(res[h][d]) >= score(rules[d]) - 1e-9 for d in base.DIFFICULTIES)] or checks

    def merit(h):
        return (round(score(res[h]["all"]) - (MIRROR_GAIN if ways[h][3] else 0.0), 6), res[h]["all"]["correct%"])
    return max(fair, key=merit)


def label(agree, fitted, mirror, no_drink=None) -> str:
    return (f"checked-pixels, agree {'top only' if agree is None else agree}"
            + (", fitted judged" if fitted else "") + (", mirrored too" if mirror else "")
            + ("" if no_drink is None else f", no drink from {no_drink.bar}"
               + (" (fitted)" if no_drink.fitted_only else " (all)")))


def held_out_tables() -> list[dict]:
    """The tables the check is chosen on: tools/learn_drink_pixels.py's held-out training-family
    tables and the feature scorer's temperature tables of the training family (with their harsher
    photos: where the phantoms are; the network's temperature was fitted on them, nothing else)."""
    return (pixels_tool.data(pixels_tool.HELD_OUT, base.PHOTOS, 0)
            + pixels_tool.data([p for p in pixels_tool.TEMPER if p[0] == "train"], base.TRAIN_PHOTOS, base.HARSH))


# training-family tables used for nothing but this report: the check chosen, before and after
TEST = (("train", range(1_340_000, 1_340_008)),)


def main(argv=None) -> int:
    from companion.vision.checked import ALONE_PATH, NoDrink, no_drink_settings, pixel_check_settings
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=str(ALONE_PATH), help="the pixel network alone (its settings are rewritten)")
    ap.add_argument("--dry-run", action="store_true", help="measure and print, write nothing")
    ap.add_argument("--plain", action="store_true",
                    help="choose as for the first checked-pixels model (make model's drink_pixels_alone.npz): "
                         "held-out tables HELD_OUT only, a sure extra not counted, no development-family "
                         "bound, no guard against phantoms")
    ap.add_argument("--test", action="store_true",
                    help="then measure the kept check on the TEST tables (used for nothing else; rendered if missing)")
    ap.add_argument("--single-read", action="store_true",
                    help="choose among checks that read each crop once (no mirror image): a wider network's "
                         "second read costs more time a frame than the speed target leaves (make model's set network)")
    ap.add_argument("--before", default=None,
                    help="with --test: another model file (its own check's settings) measured beside it there")
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
    global EXTRAS_COUNT
    EXTRAS_COUNT = not args.plain
    held = pixels_tool.data(pixels_tool.HELD_OUT, base.PHOTOS, 0) if args.plain else held_out_tables()
    reads = (False,) if args.single_read else (False, True)      # the crop once; mirrored too
    probs = {m: photo_probabilities(held, model, m) for m in reads}
    ways = {"rules": ("rules",), "checked (learned)": ("learned-check",), "pixels alone": ("pixels",)}
    for mirror in reads:
        for fitted in (False, True):
            for agree in AGREES:
                ways[label(agree, fitted, mirror)] = ("check", agree, fitted, mirror)
    res = measured(held, probs, model, ways)
    # the development family's temperature tables: a check must leave their readings nearly as
    # the rules make them (the network's temperature was fitted on them, nothing else)
    dev_tabs = [t for t in pixels_tool.data(pixels_tool.TEMPER, base.TRAIN_PHOTOS, base.HARSH) if t["family"] == "dev"]
    dev_probs = {m: photo_probabilities(dev_tabs, model, m) for m in reads}
    dev_res = measured(dev_tabs, dev_probs, model, ways)
    bound = None if args.plain else dev_res
    seeds = ", ".join(f"{s.start}..{s[-1]}" for _, s in pixels_tool.HELD_OUT)
    base.report(f"held-out training-family tables {seeds} ({base.PHOTOS} photos per difficulty) and the "
                "training family's temperature tables", res)
    print("\n| way | score (correct - 10 x wrong), all | per difficulty |")
    print("|---|---|---|")
    for how, r in res.items():
        per = " / ".join(f"{score(r[d]):.1f}" for d in base.DIFFICULTIES)
        print(f"| {how} | {score(r['all']):.2f} | {per} |")
    best = chosen(res, [h for h, w in ways.items() if w[0] == "check"], ways, bound)
    _, agree, fitted, mirror = ways[best]
    print(f"\nkept: {best}", flush=True)
    # then the guard against phantoms, on top of the kept check
    guards = {label(agree, fitted, mirror, g): ("check", agree, fitted, mirror, g)
              for g in [NoDrink(bar, only) for bar in NO_DRINK_BARS for only in (True, False)]
              if not args.plain}
    res.update(measured(held, probs, model, guards))
    dev_res.update(measured(dev_tabs, dev_probs, model, guards))
    ways.update(guards)
    best = chosen(res, [best, *guards], ways, bound)
    _, agree, fitted, mirror, *rest = ways[best]
    guard = rest[0] if rest else None
    print(f"kept, with the guard against phantoms: {best}", flush=True)
    base.report("the guard against phantoms (no single drink at least the bar: unsure)",
                {h: res[h] for h in ("rules", *guards)})
    both = "checked by both (learned, then pixels as kept)"
    res_both = measured(held, probs, model, {best: ways[best], both: ("both", agree, fitted, mirror, guard)})
    base.report("for information: the learned scorer's check and the kept pixels' check together", res_both)
    print(f"\nscore, all: {both}: {score(res_both[both]['all']):.2f} (kept alone: {score(res[best]['all']):.2f})")
    base.report(f"the development family's temperature tables (a check may cost at most {DEV_SLACK} points of "
                "correct there at any difficulty)", {h: dev_res[h] for h in ("rules", best)})
    if not args.dry_run:
        with np.load(args.model) as data:
            weights = {k: data[k] for k in data.files if k != "settings"}
        settings = dict(model.settings)
        settings["check"] = {"agree": agree, "fitted": fitted, "mirror": mirror,
                             **({} if args.plain else {"no_drink": None if guard is None else
                                                       {"bar": guard.bar, "fitted_only": guard.fitted_only}}),
                             "held_out": {h: {k: round(res[h]["all"][k], 2) for k in ("correct%", "wrong%", "unsure%")}
                                          for h in ("rules", "checked (learned)", best)},
                             "held_out_tables": [[fam, s.start, s[-1]] for fam, s in pixels_tool.HELD_OUT]
                             + ([] if args.plain else
                                [[fam, s.start, s[-1]] for fam, s in pixels_tool.TEMPER if fam == "train"])}
        save(Path(args.model), weights, settings)
        print(f"wrote the check's settings into {args.model}: {json.dumps(settings['check']['held_out'])}")
    if args.test:
        test = pixels_tool.data(TEST, base.PHOTOS, 0)
        got = measured(test, {mirror: photo_probabilities(test, model, mirror)}, model,
                       {"rules": ("rules",), best: ways[best],
                        label(agree, fitted, mirror): ("check", agree, fitted, mirror)})
        if args.before:
            old = load(args.before)
            o_agree, o_fitted, o_mirror = pixel_check_settings(old)
            o_guard = no_drink_settings(old)
            got.update(measured(test, {o_mirror: photo_probabilities(test, old, o_mirror)}, old,
                                {f"before ({args.before}): {label(o_agree, o_fitted, o_mirror, o_guard)}":
                                 ("check", o_agree, o_fitted, o_mirror, o_guard)}))
        base.report(f"the TEST tables {', '.join(f'{s.start}..{s[-1]}' for _, s in TEST)} "
                    f"({base.PHOTOS} photos per difficulty; used for nothing else)", got)
        print("\n| way | score, all (a sure extra counts as wrong) | per difficulty | sure extra |")
        print("|---|---|---|---|")
        for how, r in got.items():
            per = " / ".join(f"{score(r[d]):.1f}" for d in base.DIFFICULTIES)
            print(f"| {how} | {score(r['all']):.2f} | {per} | {r['all']['extra_sure']} |")
    print(f"{time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
