"""The set network that compares a piece with the table's own drinks (issue 26, 56th session):
trained here, exported for ``pixel_scorer`` (make model's ``models/drink_pixels_set.npz``).

The rules name a piece against the table's calibration (its colours and sizes measured from the
table's own 36 photos); the set network sees only the set's sizes and plastic colours as numbers,
and on a look it never met it disagrees with right rules' readings more often than it catches
wrong ones (benchmarks/drink_doubts.py). Here two networks are trained alike on TRAIN's tables
with their calibration pieces (``base`` is there to measure what the head brings):

* ``base``: the set network's layers (tools/drink_pixel_torch.py);
* ``proto``: the same, plus a prototype head: the hidden layer embedded (64 numbers, unit
  length); each of the table's 36 drinks' prototype is the mean embedding of its calibration
  pieces; the logits gain ``scale * cosine(piece, prototype)``. A batch holds a few tables' pieces
  and, for each of those tables, one calibration piece of each drink (augmented like the rest).

``--export PATH`` writes the network as the run time reads it (``pixel_scorer.PixelNet`` with its
prototype head: ``ew``, ``eb``, ``scale``), checked against PyTorch's scores, with the temperature
and sure bar chosen on the temperature tables as tools/learn_drink_pixels.py chooses them; then
tools/choose_pixel_check.py and tools/choose_network_names.py choose its check and naming as for
the committed set network. ``--measure``: the top name right on the pieces on drinks of the
HELD_OUT, TEMPER and TEST tables (TEST rendered if missing), each table's prototypes from its own
calibration pieces (``--committed``: the committed set network beside it, on the same pieces).

    .train-venv/bin/python tools/drink_protos.py --variant proto --epochs 20 --measure --out build/protos/proto.pt
    .train-venv/bin/python tools/drink_protos.py --variant base --epochs 20 --measure --out build/protos/base.pt
    .train-venv/bin/python tools/drink_protos.py --variant proto --more-looks --drop --epochs 30 \
        --out build/protos/proto30.pt --export build/protos/proto30.npz

The tables are learn_drink_pixels.py's (its data step renders them; MORE_LOOKS' calibration pieces
are rendered here when missing, some 7 s a table). Results: docs/performance.md, "The set network
compares a piece with the table's own drinks".

PyTorch only here (the train extra); the service runs the exported numpy network.
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

import drink_pixel_data as extras  # noqa: E402
import learn_drink_pixels as lp  # noqa: E402
import learn_drinks as base  # noqa: E402
from choose_pixel_check import TEST  # noqa: E402
from drink_pixel_torch import SEED, augmented, layer_weights, torch_net  # noqa: E402

N = 36
EMBED = 64
PER_TABLE = 32         # pieces of each table in a batch
TABLES = 4             # tables in a batch
DROP_TABLE = 0.15      # a table's prototypes all left out (a profile made without them)
DROP_DRINK = 0.1       # one drink's prototype left out


def load(plan, photos: int, harsh: int, training: bool) -> list[tuple[dict, dict, str]]:
    """Each table of a plan as (its pieces, its prototype pieces, its name). The pieces are its
    photos' (and, ``training``, its calibration pieces too); the prototype pieces are its
    calibration pieces on a drink."""
    out = []
    for fam, seeds in plan:
        for tab in lp.data(((fam, seeds),), photos, harsh):
            if tab.get("refused"):
                continue
            calib = extras.calibration_pieces(tab)
            pieces = lp.examples([{**tab, "photos": tab["photos"] + (calib if training else [])}], False, True)
            protos = lp.examples([{**tab, "photos": calib}], False, True)
            on = protos["y"] < N
            out.append((pieces, {k: v[on] if isinstance(v, np.ndarray) else v for k, v in protos.items()},
                        f"{fam}-{tab['seed']}"))
    return out


def model(n_side: int, variant: str):
    """The network in PyTorch: the set network's layers (``torch_net``, 24/48/64, hidden 128) and,
    for ``proto``, the prototype head. ``forward`` takes a batch's pieces with their tables'
    local numbers (``tid``) and those tables' calibration pieces (``px``, ``pside``, their drinks
    ``py`` and tables ``ptid``); a drink without a calibration piece in the batch gains nothing."""
    import torch
    from torch import nn

    class Protos(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = torch_net(n_side, False, (24, 48, 64), 128)
            self.emb = nn.Linear(128, EMBED) if variant == "proto" else None
            self.scale = nn.Parameter(torch.tensor(10.0)) if variant == "proto" else None

        def forward(self, x, side, tid, px=None, pside=None, py=None, ptid=None, n_tables=1):
            h = self.net.hidden(x, side)
            logits = self.net.f2(self.net.drop(h))
            if self.emb is None or px is None:
                return logits
            e = nn.functional.normalize(self.emb(h), dim=1)
            ep = nn.functional.normalize(self.emb(self.net.hidden(px, pside)), dim=1)
            slot = ptid * N + py
            sums = torch.zeros(n_tables * N, EMBED).index_add(0, slot, ep)
            counts = torch.zeros(n_tables * N).index_add(0, slot, torch.ones(len(slot)))
            protos = nn.functional.normalize(sums, dim=1).view(n_tables, N, EMBED)
            sims = torch.einsum("nk,ndk->nd", e, protos[tid]) * (counts.view(n_tables, N)[tid] > 0)
            return torch.cat([logits[:, :N] + self.scale * sims, logits[:, N:]], 1)

    return Protos()


def tensors(raw, refs, rng, augment: bool):
    """Raw crops as the network's input, augmented (``drink_pixel_torch.augmented``) if asked."""
    import torch
    from companion.vision.drink_crops import channels
    x = augmented(raw, rng) if augment else raw.astype(np.float32)
    return torch.tensor(channels(x, refs)).permute(0, 3, 1, 2)


def train(tables, variant: str, epochs: int, seed: int, log=print, drop_table: float = 0.0,
          drop_drink: float = 0.0):
    """AdamW with a one-cycle rate over ``epochs`` passes' worth of steps; each step TABLES tables
    drawn by their pieces' share, PER_TABLE pieces of each and one calibration piece of each of
    their drinks (a table's all left out at ``drop_table``, a drink's at ``drop_drink``), every
    crop augmented. Returns the network and the side numbers' standardisation."""
    import torch
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    side = np.concatenate([p["side"] for p, _, _ in tables]).astype(np.float32)
    mean, std = side.mean(axis=0), side.std(axis=0)
    std[std < 1e-6] = 1.0
    z = lambda s: torch.tensor((s.astype(np.float32) - mean) / std)  # noqa: E731
    net = model(side.shape[1], variant)
    sizes = np.array([len(p["y"]) for p, _, _ in tables], np.float64)
    n = int(sizes.sum())
    per_step = PER_TABLE * TABLES
    steps = epochs * ((n + per_step - 1) // per_step)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    t0 = time.perf_counter()
    for step in range(steps):
        net.train()
        pick = rng.choice(len(tables), TABLES, replace=False, p=sizes / n)
        xs, ss, ys, tids, pxs, pss, pys, ptids = [], [], [], [], [], [], [], []
        for local, t in enumerate(pick):
            p, q, _ = tables[t]
            idx = rng.choice(len(p["y"]), min(PER_TABLE, len(p["y"])), replace=False)
            xs.append(tensors(p["raw"][idx], p["refs"][idx], rng, True))
            ss.append(z(p["side"][idx]))
            ys.append(torch.tensor(p["y"][idx]))
            tids.append(torch.full((len(idx),), local, dtype=torch.long))
            if variant == "proto":
                # one calibration piece of each drink the table has
                if rng.random() < drop_table:
                    continue
                one = [rng.choice(np.flatnonzero(q["y"] == d)) for d in np.unique(q["y"])
                       if rng.random() >= drop_drink]
                pxs.append(tensors(q["raw"][one], q["refs"][one], rng, True))
                pss.append(z(q["side"][one]))
                pys.append(torch.tensor(q["y"][one]))
                ptids.append(torch.full((len(one),), local, dtype=torch.long))
        kw = {}
        if variant == "proto" and pxs:
            kw = dict(px=torch.cat(pxs), pside=torch.cat(pss), py=torch.cat(pys), ptid=torch.cat(ptids),
                      n_tables=TABLES)
        out = net(torch.cat(xs), torch.cat(ss), torch.cat(tids), **kw)
        loss = torch.nn.functional.cross_entropy(out, torch.cat(ys))
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if (step + 1) % 200 == 0 or step + 1 == steps:
            log(f"  step {step + 1}/{steps}: loss {loss.item():.4f} ({time.perf_counter() - t0:.0f} s)")
    return net, (mean, std)


def top_right(net, norm, tables, variant: str) -> dict:
    """Per table: pieces on drinks, the share whose top name is right, and the mean
    log-likelihood of the truth."""
    import torch
    mean, std = norm
    z = lambda s: torch.tensor((s.astype(np.float32) - mean) / std)  # noqa: E731
    net.eval()
    res: dict[str, list] = {}
    rng = np.random.default_rng(0)
    with torch.no_grad():
        for p, q, name in tables:
            on = p["y"] < N
            if not on.any():
                continue
            kw = {}
            if variant == "proto":
                kw = dict(px=tensors(q["raw"], q["refs"], rng, False), pside=z(q["side"]),
                          py=torch.tensor(q["y"]), ptid=torch.zeros(len(q["y"]), dtype=torch.long))
            x = tensors(p["raw"][on], p["refs"][on], rng, False)
            out = net(x, z(p["side"][on]), torch.zeros(int(on.sum()), dtype=torch.long), **kw)
            lp_ = torch.log_softmax(out, 1).numpy()
            y = p["y"][on]
            r = res.setdefault(name, [0, 0, 0.0])
            r[0] += len(y)
            r[1] += int((lp_.argmax(1) == y).sum())
            r[2] += float(lp_[np.arange(len(y)), y].sum())
    return res


def committed_right(tables) -> dict:
    """top_right's numbers for the committed set network (numpy, no prototypes)."""
    from companion.vision.checked import SET_PATH
    from companion.vision.pixel_scorer import load as load_model
    m = load_model(SET_PATH)
    res = {}
    for p, _, name in tables:
        on = p["y"] < N
        if on.any():
            pr = lp.probabilities(m, p)[on]
            y = p["y"][on]
            res[name] = [len(y), int((pr.argmax(1) == y).sum()),
                         float(np.log(np.maximum(pr[np.arange(len(y)), y], 1e-300)).sum())]
    return res


def report(title: str, res: dict) -> None:
    """One line: pieces, the share whose top name is right, the mean log-likelihood, per table."""
    n = sum(r[0] for r in res.values())
    right = sum(r[1] for r in res.values())
    ll = sum(r[2] for r in res.values())
    per = " ".join(f"{k.split('-')[-1]}:{100 * r[1] / r[0]:.0f}" for k, r in res.items())
    print(f"{title}: {n} pieces, top name right {100 * right / max(n, 1):.2f} %, "
          f"mean log-likelihood {ll / max(n, 1):.3f}   [{per}]", flush=True)


def exported(net, norm) -> dict:
    """The trained network's weights in pixel_scorer.PixelNet's layout, the prototype head's too."""
    mean, std = norm
    weights = {**layer_weights(net.net), "mean": mean, "std": std}
    if net.emb is not None:
        weights.update(ew=net.emb.weight.detach().numpy(), eb=net.emb.bias.detach().numpy(),
                       scale=net.scale.detach().numpy().reshape(1))
    return weights


def export(net, norm, out: Path, train_tabs, epochs: int, seed: int, took: float) -> None:
    """The network as the run time reads it, checked against PyTorch's scores, with the
    temperature and the sure bar chosen as tools/learn_drink_pixels.py chooses them (on the
    temperature tables, each table's prototypes from its profile's calibration pieces)."""
    import torch
    from companion.vision.drink_crops import channels
    from companion.vision.pixel_scorer import PixelModel, PixelNet, save
    weights = exported(net, norm)
    settings = {"kind": "tokyo-table-companion/drink-pixels", "features": False, "set_sizes": True,
                "temperature": 1.0, "compares": net.emb is not None}
    model = PixelModel(PixelNet(weights), settings)
    temper_tabs = lp.data(lp.TEMPER, base.TRAIN_PHOTOS, base.HARSH)
    # the numpy network gives PyTorch's scores, prototypes and all
    ex = lp.examples(temper_tabs[:1], False, True)
    protos = model.prototypes(ex["profiles"][0])
    k = min(64, len(ex["y"]))
    x = channels(ex["raw"][:k].astype(np.float32), ex["refs"][:k])
    got = model.net.logits(x, ex["side"][:k], protos)
    mean, std = norm
    px, pside, rows = model.piece_inputs(ex["profiles"][0])
    net.eval()
    with torch.no_grad():
        kw = {}
        if net.emb is not None:
            kw = dict(px=torch.tensor(px).permute(0, 3, 1, 2), pside=torch.tensor((pside - mean) / std),
                      py=torch.tensor(rows), ptid=torch.zeros(len(rows), dtype=torch.long))
        want = net(torch.tensor(x).permute(0, 3, 1, 2), torch.tensor((ex["side"][:k] - mean) / std),
                   torch.zeros(k, dtype=torch.long), **kw).numpy()
    assert np.allclose(got, want, atol=1e-3), float(np.abs(got - want).max())
    held = lp.examples(temper_tabs, False, True)
    model.temperature = settings["temperature"] = lp.fit_temperature(model, held)
    bars = {fam: lp.choose_sure(model, lp.examples([t for t in temper_tabs if t["family"] == fam], False, True))
            for fam in sorted({t["family"] for t in temper_tabs})}
    fam = max(bars, key=lambda f: bars[f][0])
    model.sure, at = bars[fam]
    settings.update(sure=model.sure, temperature_tables_at_sure={**at, "family": fam,
                                                                  "bars": {f: b for f, (b, _) in bars.items()}},
                    epochs=epochs, seed=seed, training_s=round(took), norm="none", augment="plain",
                    widths=[int(len(weights[f"c{i}b"])) for i in (1, 2, 3)], hidden=int(len(weights["f1b"])),
                    pieces=int(sum(len(p["y"]) for p, _, _ in train_tabs)),
                    trained={"tables": [[n.split("-")[0], int(n.split("-")[1]), int(n.split("-")[1])]
                                        for _, _, n in train_tabs],
                             "temperature_tables": [[f, s.start, s[-1]] for f, s in lp.TEMPER]},
                    prototypes={"embed": EMBED, "drop_table": DROP_TABLE, "drop_drink": DROP_DRINK})
    save(out, weights, settings)
    print(f"exported {out}: temperature {settings['temperature']}, sure from {model.sure}: {at}", flush=True)


def measure_exported(path: Path) -> None:
    """The exported network's top name on the held-out and TEST tables, read as the run time
    reads it (numpy; each table's prototypes from its profile's calibration pieces)."""
    from companion.vision.pixel_scorer import load as load_model
    model = load_model(path)
    for name, plan, photos, harsh in (("held-out", lp.HELD_OUT, base.PHOTOS, 0), ("TEST", TEST, base.PHOTOS, 0)):
        ex = lp.examples(lp.data(plan, photos, harsh), False, True)
        p = lp.probabilities(model, ex)[:, :N]
        on = ex["y"] < N
        print(f"exported, run-time prototypes, {name}: top name right "
              f"{100 * float((p[on].argmax(1) == ex['y'][on]).mean()):.2f} % of {int(on.sum())}", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", choices=["base", "proto"], required=True)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--out", required=True)
    ap.add_argument("--more-looks", action="store_true", help="train on MORE_LOOKS' tables too (with their calibration pieces)")
    ap.add_argument("--drop", action="store_true", help="leave prototypes out at random (DROP_TABLE, DROP_DRINK)")
    ap.add_argument("--committed", action="store_true", help="measure the committed set network on the same pieces too")
    ap.add_argument("--export", default=None, help="also write the network as pixel_scorer reads it (.npz)")
    ap.add_argument("--measure", action="store_true",
                    help="then measure it on the held-out, temperature and TEST tables (TEST rendered if missing)")
    args = ap.parse_args(argv)
    import cv2
    import torch
    cv2.setNumThreads(1)
    torch.set_num_threads(1)
    import logging
    logging.basicConfig(level=logging.ERROR)
    t0 = time.perf_counter()
    train_tabs = [t for fam, seeds, photos, harsh in lp.TRAIN
                  for t in load(((fam, seeds),), photos, harsh, True)]
    if args.more_looks:
        train_tabs += [t for fam, seeds, photos, harsh in lp.MORE_LOOKS
                       for t in load(((fam, seeds),), photos, harsh, True)]
    print(f"{len(train_tabs)} training tables, {sum(len(p['y']) for p, _, _ in train_tabs)} pieces "
          f"({time.perf_counter() - t0:.0f} s)", flush=True)
    t1 = time.perf_counter()
    net, norm = train(train_tabs, args.variant, args.epochs, args.seed, log=lambda m: print(m, flush=True),
                      drop_table=DROP_TABLE if args.drop else 0.0, drop_drink=DROP_DRINK if args.drop else 0.0)
    took = time.perf_counter() - t1
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    torch.save({"state": net.state_dict(), "norm": norm, "variant": args.variant}, args.out)
    if args.export:
        export(net, norm, Path(args.export), train_tabs, args.epochs, args.seed, took)
    if not args.measure:
        print(f"{time.perf_counter() - t0:.0f} s in all", flush=True)
        return 0
    if args.export:
        measure_exported(Path(args.export))
    sets = {"held-out": load(lp.HELD_OUT, base.PHOTOS, 0, False),
            "temper train": load([p for p in lp.TEMPER if p[0] == "train"], base.TRAIN_PHOTOS, base.HARSH, False),
            "temper dev": load([p for p in lp.TEMPER if p[0] == "dev"], base.TRAIN_PHOTOS, base.HARSH, False),
            "TEST": load(TEST, base.PHOTOS, 0, False)}
    for name, tabs in sets.items():
        if args.committed:
            report(f"committed {name}", committed_right(tabs))
        report(f"{args.variant} {name}", top_right(net, norm, tabs, args.variant))
        if args.variant == "proto":
            report(f"{args.variant} without prototypes {name}", top_right(net, norm, tabs, "base"))
    print(f"{time.perf_counter() - t0:.0f} s in all", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
