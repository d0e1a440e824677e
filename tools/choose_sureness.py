"""Fit the learned sureness of ``scorer="checked-sure"`` (companion/vision/sure.py) and choose its
bar, on training-family tables only, and write it to companion/vision/models/drink_sure.json.

    .venv/bin/python tools/choose_sureness.py [--jobs 2] [--test] [--dry-run] [--target 0.997]

Tables: tools/choose_pixel_check.py's held-out tables (``held_out_tables``: the held-out
training-family tables and the training family's temperature tables, with their harsher photos)
and this tool's own (SURE_TABLES: training family, rendered as the temperature tables are, used
by no other model): the pixel network never trained on any of them. Each sure rules' reading
there is asked of ``checked-set``'s network (its crop read as its settings say); its guard
against phantoms is applied as ``checked-set`` applies it, and every reading it lets through
is an example: the numbers of ``sure.inputs`` and whether the rules' name is the drink the
piece lies on (a reading on no drink is wrong). A logistic regression (L2, Newton's method,
numpy) is fitted on them. The model written is fitted on all the tables; each table's readings
are also judged by a model fitted without its group of tables (FOLDS groups, "out of fold").

The bar, by score (the default; ``choose_by_score``; the rule was written down here before any
of its results was seen). For each bar of BARS:

* its score at each of the benchmark's four difficulties (``base.DIFFICULTIES``; the harsher
  photos left out) on the training-family tables above, every table judged out of fold, the
  readings' repeats doubted as the pipeline doubts them: ``choose_pixel_check.score``, correct
  minus ten times wrong in % of the drinks, a sure extra reading counted as a wrong one;
* its correct at each difficulty on the development family's temperature tables, judged by the
  model written (no model was fitted on them).

A bar is allowed when on those development tables its correct is at most DEV_SLACK (1.0) points
below the rules' at every difficulty (a new default may cost no more there). Of the allowed
bars, those whose out-of-fold score is at least ``checked-set``'s at every difficulty are kept
when there is one; of those kept, the bar with the highest sum of the four difficulties'
scores is chosen (each difficulty weighs the same, as the benchmark reports them); a tie (to
1e-6) goes to the higher bar. When no bar is allowed, the lowest of BARS (the one that asks
least) is taken and a warning printed.

``--target 0.997`` chooses as before instead (``choose_bar``): the lowest of BARS at which the
sure readings on drinks, over all the tables out of fold (the four difficulties pooled, a sure
extra counted as a wrong one), were right at least that share of the time (issue 26's 99.7 %,
``sure.SURE_RIGHT``).

The rules and ``checked-set`` are measured beside the chosen bar on the same pieces and on the
development family's temperature tables. ``--test`` then measures all three on the TEST tables
of tools/choose_pixel_check.py (training family, used for nothing else: a confirmation, never a
choice). The same model at the bars OTHER_BARS is printed beside it, for information. Never the
evaluation family.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from types import SimpleNamespace  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import choose_pixel_check as chooser  # noqa: E402
import learn_drink_pixels as pixels_tool  # noqa: E402
import learn_drinks as base  # noqa: E402

# training-family tables for the sureness alone (no network or bar was fitted on them)
SURE_TABLES = (("train", range(1_360_000, 1_360_048)),)   # 1_350_000-047: the set network's (MORE_LOOKS)
FOLDS = 5
L2 = 1.0                       # the penalty on the standardised weights (sum of squares)
BARS = tuple(np.round(np.arange(0.50, 0.995, 0.005), 3))
DEV_SLACK = chooser.DEV_SLACK


def tables(jobs: int = 1) -> list[dict]:
    return (chooser.held_out_tables()
            + pixels_tool.data(SURE_TABLES, base.TRAIN_PHOTOS, base.HARSH, jobs))


def examples(tabs: list[dict], pixels) -> list[dict]:
    """Per photo: its sure readings the guard let through, their inputs and whether they are
    right, and which of the photo's pieces they are; the guard's own doubts."""
    from companion.vision.checked import no_drink_settings, pixel_check_settings
    from companion.vision.sure import INPUTS, N_DRINKS, inputs, to_judge
    _, _, mirror = pixel_check_settings(pixels)
    guard = no_drink_settings(pixels)
    probs = chooser.photo_probabilities(tabs, pixels, mirror)
    out = []
    for t, tab in enumerate(tabs):
        for k, ph in enumerate(tab["photos"]):
            p = probs.get((tab["seed"], k), np.zeros((0, N_DRINKS + 1)))
            judged = {id(d) for d in to_judge(ph["pieces"])}
            rows, xs, ys, guarded = [], [], [], []
            for j, (d, truth) in enumerate(zip(ph["pieces"], ph["truth"])):
                if id(d) not in judged:
                    continue
                if guard is not None and guard.doubts(d, p[j]):
                    guarded.append(j)
                    continue
                rows.append(j)
                xs.append(inputs(d, p[j], ph["sharpness"], tab["profile"]))
                ys.append(truth is not None and f"{d['color']}-{d['shape']}" == truth)
            out.append({"table": t, "tab": tab, "photo": ph, "rows": rows, "guarded": guarded, "probs": p,
                        "x": np.array(xs).reshape(len(xs), len(INPUTS)), "y": np.array(ys, bool)})
    return out


def fit(x: np.ndarray, y: np.ndarray, l2: float = L2, steps: int = 50):
    """L2-penalised logistic regression by Newton's method on standardised inputs: (mean, std,
    weights, bias)."""
    mean, std = x.mean(axis=0), x.std(axis=0)
    std[std < 1e-9] = 1.0
    z = np.hstack([(x - mean) / std, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    pen = np.full(z.shape[1], l2)
    pen[-1] = 0.0                       # the bias is not penalised
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -40, 40)))
        grad = z.T @ (p - y) + pen * w
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(pen) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return mean, std, w[:-1], float(w[-1])


# the numbers of sure.INPUTS the model weighs: all of them. Out of fold on these tables, leaving
# out the three weakest (the network's view of the rules' runner-up, the margin to another
# colour, the colour's distance) changed little; products of two inputs, or a hidden layer of 8
# (a tiny MLP), left a few fewer mistakes and asked about an eighth fewer readings at the target:
# small against the folds' noise, and not followed up (docs/performance.md).
USES = None            # None: every one of sure.INPUTS


def model_of(x, y, bar=0.5, settings=None, uses=USES):
    from companion.vision.sure import INPUTS, SureModel
    uses = uses or INPUTS
    cols = [INPUTS.index(u) for u in uses]
    mean, std, w, b = fit(x[:, cols], y)
    return SureModel(tuple(uses), mean, std, w, b, bar, settings or {})


def out_of_fold(ex: list[dict]) -> None:
    """Each photo's ``right``: its readings judged by a model fitted without its fold of tables."""
    n_tab = max(e["table"] for e in ex) + 1
    fold = np.arange(n_tab) % FOLDS
    for f in range(FOLDS):
        train = [e for e in ex if fold[e["table"]] != f and len(e["y"])]
        m = model_of(np.concatenate([e["x"] for e in train]), np.concatenate([e["y"] for e in train]))
        for e in ex:
            if fold[e["table"]] == f:
                e["right"] = m.right(e["x"]) if len(e["y"]) else np.zeros(0)


def readings_at(e: dict, bar: float | None, how: str) -> list[dict]:
    """A photo's final readings: ``how`` "rules"; "checked-set" (its top-name check); "sure" (the
    learned sureness at ``bar``, ``e["right"]`` its probabilities)."""
    from companion.vision.checked import check, no_drink_settings, pixel_check_settings
    from companion.vision.repeats import doubt_repeats
    ph = e["photo"]
    if how == "rules":
        return ph["rules"]
    pieces = [dict(d) for d in ph["pieces"]]
    if how == "checked-set":
        agree, fitted, _ = pixel_check_settings(e["pixels"])
        at = {id(d): j for j, d in enumerate(pieces)}
        check(pieces, SimpleNamespace(sharpness=ph["sharpness"]), e["tab"]["profile"],
              lambda todo, *_: e["probs"][[at[id(d)] for d in todo]], "pixels", agree=agree,
              judge_fitted=fitted, no_drink=no_drink_settings(e["pixels"]))
    else:
        for j in e["guarded"]:
            pieces[j]["unsure"] = True
        for j, r in zip(e["rows"], e["right"]):
            if r < bar:
                pieces[j]["unsure"] = True
    return doubt_repeats(pieces)


def measure(ex: list[dict], ways: dict[str, tuple]) -> dict:
    """base.measure's table for each way (name -> (how, bar)), photo by photo of ``ex``."""
    by_photo = {id(e["photo"]): e for e in ex}
    tabs = {}
    for e in ex:
        tabs.setdefault(id(e["tab"]), {"tab": e["tab"], "photos": []})["photos"].append(e["photo"])
    shells = [{**v["tab"], "photos": v["photos"]} for v in tabs.values()]

    def readings_of(tab, photo, how, _model=None):
        kind, bar = ways[how]
        return readings_at(by_photo[id(photo)], bar, kind)

    return {how: base.measure(shells, how, read=readings_of) for how in ways}


def sure_share(r: dict) -> float:
    """Of the sure readings on drinks and the sure extras, the share right."""
    sure = r["correct"] + r["wrong"] + r["extra_sure"]
    return r["correct"] / sure if sure else 1.0


def benchmark_share(res: dict) -> float:
    """``sure_share`` over the benchmark's four difficulties together (the harsher photos of the
    temperature tables left out: the target is the benchmark's)."""
    return sure_share({k: sum(res[d][k] for d in base.DIFFICULTIES) for k in ("correct", "wrong", "extra_sure")})


def choose_bar(ex: list[dict], target: float) -> tuple[float, dict]:
    """The lowest of BARS whose sure readings (out of fold, the benchmark's difficulties) were
    right at least ``target``; the highest when none was."""
    tried = {}
    for bar in BARS:
        res = measure(ex, {"sure": ("sure", float(bar))})["sure"]
        tried[float(bar)] = res
        if benchmark_share(res) >= target:
            return float(bar), tried
    return float(BARS[-1]), tried


def summed_score(res: dict) -> float:
    """The sum of ``choose_pixel_check.score`` over the benchmark's four difficulties."""
    return sum(chooser.score(res[d]) for d in base.DIFFICULTIES)


def choose_by_score(ex: list[dict], dev_ex: list[dict]) -> tuple[float, dict]:
    """The bar by score (the module's docstring): of BARS whose development-table correct is
    within DEV_SLACK of the rules' at every difficulty (``dev_ex`` judged by the model written),
    preferring those that score at least ``checked-set`` at every difficulty out of fold on
    ``ex``, the one with the highest summed score; a tie to the higher bar. Returns the bar
    and, per bar, (out-of-fold results, development results)."""
    ref = measure(ex, {"rules": ("rules", None), "checked-set": ("checked-set", None)})
    dev_rules = measure(dev_ex, {"rules": ("rules", None)})["rules"]
    tried = {}
    for bar in BARS:
        bar = float(bar)
        tried[bar] = (measure(ex, {"sure": ("sure", bar)})["sure"], measure(dev_ex, {"sure": ("sure", bar)})["sure"])
    allowed = [b for b, (_, dv) in tried.items()
               if all(dv[d]["correct%"] >= dev_rules[d]["correct%"] - DEV_SLACK - 1e-9 for d in base.DIFFICULTIES)]
    if not allowed:
        print(f"warning: no bar keeps the development tables within {DEV_SLACK} points of the rules; "
              f"taking the lowest, {float(BARS[0])}", flush=True)
        return float(BARS[0]), tried
    beat = [b for b in allowed if all(chooser.score(tried[b][0][d]) >= chooser.score(ref["checked-set"][d]) - 1e-9
                                      for d in base.DIFFICULTIES)]
    kept = beat or allowed
    return max(kept, key=lambda b: (round(summed_score(tried[b][0]), 6), b)), tried


def table_report(title: str, res: dict) -> None:
    base.report(title, res)
    print("\n| way | score (correct - 10 x wrong, a sure extra counted as wrong), all | per difficulty | "
          "sure right %, all | sure right %, the four difficulties |")
    print("|---|---|---|---|---|")
    for how, r in res.items():
        per = " / ".join(f"{chooser.score(r[d]):.1f}" for d in base.DIFFICULTIES)
        print(f"| {how} | {chooser.score(r['all']):.2f} | {per} | {100 * sure_share(r['all']):.2f} | "
              f"{100 * benchmark_share(r):.2f} |")


# bars measured beside the chosen one, for information only (never chosen by these numbers)
OTHER_BARS = (0.9, 0.95)


def compared(bar: float) -> dict:
    return {"rules": ("rules", None), "checked-set": ("checked-set", None), f"checked-sure at {bar}": ("sure", bar),
            **{f"(for information) the same model at {b}": ("sure", b) for b in (*OTHER_BARS, 0.985) if b != bar}}


def attach(ex: list[dict], pixels, model=None) -> list[dict]:
    for e in ex:
        e["pixels"] = pixels
        if model is not None:
            e["right"] = model.right(e["x"]) if len(e["y"]) else np.zeros(0)
    return ex


def main(argv=None) -> int:
    from companion.vision.checked import SET_PATH, alone_model
    from companion.vision.sure import SURE_PATH, SURE_RIGHT, SureModel
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(SURE_PATH), help="where to write the model")
    ap.add_argument("--jobs", type=int, default=1, help="processes rendering missing tables")
    ap.add_argument("--dry-run", action="store_true", help="measure and print, write nothing")
    ap.add_argument("--test", action="store_true", help="then measure on choose_pixel_check's TEST tables")
    ap.add_argument("--target", type=float, default=None, nargs="?", const=SURE_RIGHT,
                    help=f"choose the bar as the lowest whose sure readings were right this share of the time "
                         f"(without a value: {SURE_RIGHT}); without --target: by score")
    args = ap.parse_args(argv)
    import cv2
    cv2.setNumThreads(1)
    import logging
    logging.basicConfig(level=logging.ERROR)
    t0 = time.perf_counter()
    pixels = alone_model(str(SET_PATH))
    tabs = tables(args.jobs)
    ex = attach(examples(tabs, pixels), pixels)
    x = np.concatenate([e["x"] for e in ex if len(e["y"])])
    y = np.concatenate([e["y"] for e in ex if len(e["y"])])
    print(f"{len(tabs)} tables, {sum(len(t['photos']) for t in tabs)} photos: {len(y)} sure readings judged, "
          f"{int((~y).sum())} of them wrong ({time.perf_counter() - t0:.0f} s)", flush=True)
    out_of_fold(ex)
    final = model_of(x, y)
    # the development family's temperature tables: a new default may cost at most DEV_SLACK there
    dev_tabs = [t for t in pixels_tool.data(pixels_tool.TEMPER, base.TRAIN_PHOTOS, base.HARSH, args.jobs)
                if t["family"] == "dev"]
    dev_ex = attach(examples(dev_tabs, pixels), pixels, final)
    if args.target is None:
        bar, tried = choose_by_score(ex, dev_ex)
        print(f"bar (by score out of fold; development tables within {DEV_SLACK} of the rules): {bar}", flush=True)
        print("\n| bar | out-of-fold score per difficulty | summed | development correct per difficulty |")
        print("|---|---|---|---|")
        for b, (r, dv) in tried.items():
            per = " / ".join(f"{chooser.score(r[d]):.1f}" for d in base.DIFFICULTIES)
            dev_per = " / ".join(f"{dv[d]['correct%']:.2f}" for d in base.DIFFICULTIES)
            print(f"| {b} | {per} | {summed_score(r):.1f} | {dev_per} |")
    else:
        bar, tried = choose_bar(ex, args.target)
        print(f"bar (out of fold, sure right >= {args.target}): {bar}", flush=True)
    ways = {"rules": ("rules", None), "checked-set": ("checked-set", None),
            f"checked-sure at {bar} (out of fold)": ("sure", bar)}
    for other in (0.8, *OTHER_BARS, 0.985):
        if other != bar:
            ways[f"checked-sure at {other} (out of fold)"] = ("sure", other)
    held = measure(ex, ways)
    table_report("the tables the sureness was fitted and chosen on (each table judged out of fold)", held)
    final = SureModel(final.uses, final.mean, final.std, final.weights, final.bias, bar, final.settings)
    print("\nweights (standardised inputs):")
    for name, w in sorted(zip(final.uses, final.weights), key=lambda t: -abs(t[1])):
        print(f"  {name:18s} {w:+.3f}")
    dev = measure(dev_ex, compared(bar))
    table_report(f"the development family's temperature tables (at most {DEV_SLACK} points of correct below the "
                 "rules at any difficulty)", dev)
    settings = {"tables": [[fam, s.start, s[-1]] for fam, s in pixels_tool.HELD_OUT]
                + [[fam, s.start, s[-1]] for fam, s in pixels_tool.TEMPER if fam == "train"]
                + [[fam, s.start, s[-1]] for fam, s in SURE_TABLES],
                "examples": int(len(y)), "wrong": int((~y).sum()),
                "chosen_by": (f"score, development within {DEV_SLACK}" if args.target is None
                              else f"sure right >= {args.target}"), "l2": L2, "folds": FOLDS,
                "pixels": SET_PATH.name,
                "held_out": {h: {k: round(held[h]["all"][k], 2) for k in ("correct%", "wrong%", "unsure%")}
                             for h in list(held)[:3]}}
    final = SureModel(final.uses, final.mean, final.std, final.weights, final.bias, bar, settings)
    if not args.dry_run:
        Path(args.out).write_text(json.dumps(final.to_dict(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {args.out} ({Path(args.out).stat().st_size} bytes)")
    if args.test:
        test_tabs = pixels_tool.data(chooser.TEST, base.PHOTOS, 0, args.jobs)
        got = measure(attach(examples(test_tabs, pixels), pixels, final), compared(bar))
        table_report(f"the TEST tables {', '.join(f'{s.start}..{s[-1]}' for _, s in chooser.TEST)} "
                     f"({base.PHOTOS} photos per difficulty; used for nothing else)", got)
    print(f"{time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
