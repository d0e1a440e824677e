"""Choose whether and where the set network names the readings ``checked-set`` leaves unsure
(companion/vision/checked.py, ``Naming``), on training-family tables only, and write the choice
into the network's file (``settings["check"]["name"]``).

    .venv/bin/python tools/choose_network_names.py [--model companion/vision/models/drink_pixels_set.npz] [--test] [--dry-run]

Why: ``checked-set`` only takes sureness away. What the rules leave unsure (or what the check
asks about because the network names it otherwise) is asked at the table, though on training-
family tables the network alone, where it is sure, is right more than 99.8 % of the time.

Tables: tools/choose_pixel_check.py's held-out tables and tools/choose_sureness.py's own
(SURE_TABLES), none of which the network was trained on; the development family's temperature
tables as the bound a new default keeps. The network's check stays as chosen for it
(agree, fitted, mirror, guard); on top of it, each bar of BARS with each pool of
``Naming.POOLS``. The rule, written down before any of its results was seen
(/work/notes/name-prereg.md, 27th session): a naming is allowed when

* its named readings on drinks, the four difficulties pooled (the harsher photos left out), were
  right at least SURE_RIGHT (99.7 %) of the time, a named reading on no drink counted wrong;
* its score (``choose_pixel_check.score``: correct minus ten times wrong, a sure extra counted
  wrong) is at least the check's without naming at every difficulty;
* on the development family's temperature tables its correct is within DEV_SLACK points of the
  rules' at every difficulty.

Of the allowed, the one with the highest score summed over the four difficulties; a tie goes to
the higher bar. When none is allowed the file gets no naming (the unsure stay unsure).

Then, on top of the kept naming, a lower bar for a reading the rules doubted only between two
drinks where the network names one of the two (``Naming.agreeing``, each of AGREEING; 43rd
session, its rule written down before its results in /work/notes/board-prereg.md): allowed
when the readings it names so, the four difficulties pooled, were right at least SURE_RIGHT of
the time on their own, its score at least the naming's at every difficulty, and the development
tables as above; the allowed one with the highest summed score is kept if it beats the naming
alone (a tie goes to the higher bar).
``--test`` then measures the check with and without the naming on the TEST tables (training
family, used for nothing else): a confirmation, never a choice. Never the evaluation family.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import choose_pixel_check as chooser  # noqa: E402
import choose_sureness as sureness  # noqa: E402
import learn_drink_pixels as pixels_tool  # noqa: E402
import learn_drinks as base  # noqa: E402

BARS = (0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999)
AGREEING = (0.8, 0.9, 0.95, 0.97, 0.98, 0.99)
SURE_RIGHT = 0.997
# Each drink once (checked.name_once): the readings left unsure named again without the drinks the
# frame reads surely elsewhere. Not chosen here: written into the kept naming as it is, kept by
# its own rule on fresh evaluation tables (docs/performance.md, "Each drink once in a frame").
ONCE = True


def named_share(res: dict) -> tuple[int, int]:
    """(named readings on or off drinks, of them right), the four difficulties pooled."""
    rows = [res[d] for d in base.DIFFICULTIES]
    return sum(r["by_network"] for r in rows), sum(r["by_network_right"] for r in rows)


def allowed(res: dict, plain: dict, dev: dict, dev_rules: dict) -> tuple[bool, str]:
    """Whether a naming's results pass the rule (the module's docstring); and why not."""
    n, right = named_share(res)
    if n and right < SURE_RIGHT * n:
        return False, f"named right {right}/{n}"
    worse = [d for d in base.DIFFICULTIES if chooser.score(res[d]) < chooser.score(plain[d]) - 1e-9]
    if worse:
        return False, f"score below the check's on {', '.join(worse)}"
    far = [d for d in base.DIFFICULTIES if dev[d]["correct%"] < dev_rules[d]["correct%"] - chooser.DEV_SLACK - 1e-9]
    if far:
        return False, f"development correct too far below the rules' on {', '.join(far)}"
    return True, ""


def agreeing_allowed(res: dict, chosen: dict, dev: dict, dev_rules: dict) -> tuple[bool, str]:
    """Whether a lower bar for one of the rules' two drinks (``Naming.agreeing``) passes the
    rule (the 43rd session's, written before its results: /work/notes/board-prereg.md): the
    readings it names right at least SURE_RIGHT of the time, the four difficulties pooled, on
    their own; its score at least the chosen naming's at every difficulty; the development
    tables as for the naming. And why not."""
    rows = [res[d] for d in base.DIFFICULTIES]
    n, right = sum(r["by_agreement"] for r in rows), sum(r["by_agreement_right"] for r in rows)
    if n and right < SURE_RIGHT * n:
        return False, f"named by agreement right {right}/{n}"
    return allowed(res, chosen, dev, dev_rules)


def ways_of(model) -> tuple[tuple, dict]:
    """The network's own check as a choose_pixel_check way, and every naming on top of it."""
    from companion.vision.checked import Naming, no_drink_settings, pixel_check_settings
    agree, fitted, mirror = pixel_check_settings(model)
    plain = ("check", agree, fitted, mirror, no_drink_settings(model))
    namings = {f"named from {bar}, {pool}": (*plain, Naming(bar, pool)) for bar in BARS for pool in Naming.POOLS}
    return plain, namings


def table(title: str, res: dict) -> None:
    print(f"\n{title}")
    print("| way | score per difficulty | summed | named (right) | sure at >= 0.9 right, all |")
    print("|---|---|---|---|---|")
    for how, r in res.items():
        per = " / ".join(f"{chooser.score(r[d]):.1f}" for d in base.DIFFICULTIES)
        n, right = named_share(r)
        print(f"| {how} | {per} | {sureness.summed_score(r):.1f} | {n} ({right}) | {r['all']['reliability'][-1]} |")


def main(argv=None) -> int:
    from companion.vision.checked import SET_PATH
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=str(SET_PATH), help="the set network (its settings are rewritten)")
    ap.add_argument("--jobs", type=int, default=1, help="processes rendering missing tables")
    ap.add_argument("--dry-run", action="store_true", help="measure and print, write nothing")
    ap.add_argument("--test", action="store_true", help="then confirm on the TEST tables")
    args = ap.parse_args(argv)
    import cv2
    cv2.setNumThreads(1)
    import logging
    logging.basicConfig(level=logging.ERROR)
    from companion.vision.pixel_scorer import load, save
    t0 = time.perf_counter()
    model = load(args.model)
    plain, namings = ways_of(model)
    mirror = plain[3]
    tabs = sureness.tables(args.jobs)
    probs = {mirror: chooser.photo_probabilities(tabs, model, mirror)}
    ways = {"rules": ("rules",), "checked-set": plain, **namings}
    res = chooser.measured(tabs, probs, model, ways)
    dev_tabs = [t for t in pixels_tool.data(pixels_tool.TEMPER, base.TRAIN_PHOTOS, base.HARSH, args.jobs)
                if t["family"] == "dev"]
    dev_probs = {mirror: chooser.photo_probabilities(dev_tabs, model, mirror)}
    dev = chooser.measured(dev_tabs, dev_probs, model, ways)
    print(f"{len(tabs)} tables ({time.perf_counter() - t0:.0f} s)", flush=True)
    table("choosing tables (held-out, temperature and the sureness's own; training family)", res)
    verdicts = {how: allowed(res[how], res["checked-set"], dev[how], dev["rules"]) for how in namings}
    print("\n| way | allowed | why not |\n|---|---|---|")
    for how, (ok, why) in verdicts.items():
        print(f"| {how} | {'yes' if ok else 'no'} | {why} |")
    fair = [h for h, (ok, _) in verdicts.items() if ok]
    best = max(fair, key=lambda h: (round(sureness.summed_score(res[h]), 6), namings[h][5].bar)) if fair else None
    print(f"\nkept: {best or 'no naming'}", flush=True)
    base.report("the choosing tables, the rules, the check and the kept naming",
                {h: res[h] for h in ("rules", "checked-set", *([best] if best else []))})
    base.report(f"the development family's temperature tables (at most {chooser.DEV_SLACK} points of correct "
                "below the rules')", {h: dev[h] for h in ("rules", "checked-set", *([best] if best else []))})
    if best:
        from companion.vision.checked import Naming
        chosen = namings[best]
        agreeings = {f"{best}, one of two from {a}": (*chosen[:5], Naming(chosen[5].bar, chosen[5].pool, a))
                     for a in AGREEING}
        ways2 = {best: chosen, **agreeings}
        res2 = chooser.measured(tabs, probs, model, ways2)
        dev2 = chooser.measured(dev_tabs, dev_probs, model, ways2)
        table("the rules' two, named from a lower bar (choosing tables)", res2)
        print("\n| way | named by agreement (right) | allowed | why not |\n|---|---|---|---|")
        fair2 = []
        for how in agreeings:
            ok, why = agreeing_allowed(res2[how], res2[best], dev2[how], dev["rules"])
            n = sum(res2[how][d]["by_agreement"] for d in base.DIFFICULTIES)
            right = sum(res2[how][d]["by_agreement_right"] for d in base.DIFFICULTIES)
            print(f"| {how} | {n} ({right}) | {'yes' if ok else 'no'} | {why} |")
            if ok and n:
                fair2.append(how)
        best2 = max(fair2, key=lambda h: (round(sureness.summed_score(res2[h]), 6), agreeings[h][5].agreeing)) \
            if fair2 else None
        if best2 and sureness.summed_score(res2[best2]) > sureness.summed_score(res2[best]) + 1e-9:
            print(f"\nkept, with a lower bar for the rules' two: {best2}", flush=True)
            namings[best2], res[best2] = agreeings[best2], res2[best2]
            best = best2
        else:
            print("\nkept: no lower bar for the rules' two", flush=True)
    if not args.dry_run:
        with np.load(args.model) as data:
            weights = {k: data[k] for k in data.files if k != "settings"}
        settings = dict(model.settings)
        check = dict(settings.get("check", {}))
        check.pop("name", None)
        if best:
            naming = namings[best][5]
            n, right = named_share(res[best])
            check["name"] = {"bar": naming.bar, "pool": naming.pool, "named": n, "named_right": right,
                             **({"agreeing": naming.agreeing} if naming.agreeing is not None else {}),
                             "once": ONCE,
                             "tables": [[fam, s.start, s[-1]] for fam, s in (
                                 *pixels_tool.HELD_OUT, *(p for p in pixels_tool.TEMPER if p[0] == "train"),
                                 *sureness.SURE_TABLES)]}
        settings["check"] = check
        save(Path(args.model), weights, settings)
        print(f"wrote the naming into {args.model}: {check.get('name')}")
    if args.test and best:
        test = pixels_tool.data(chooser.TEST, base.PHOTOS, 0, args.jobs)
        got = chooser.measured(test, {mirror: chooser.photo_probabilities(test, model, mirror)}, model,
                               {"rules": ("rules",), "checked-set": plain, best: namings[best]})
        table(f"TEST tables {', '.join(f'{s.start}..{s[-1]}' for _, s in chooser.TEST)} (confirmation only)", got)
    print(f"{time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
