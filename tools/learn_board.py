"""Train the board reader's place network (companion/vision/board_net.py) on rendered boards.

    python tools/learn_board.py              (data, training, export, report: needs PyTorch)
    .venv/bin/python tools/learn_board.py --measure    (only the report, with the committed model)
    .venv/bin/python tools/learn_board.py --measure --model S.json,N.npz    (... with another)

PyTorch is a training tool, not a dependency of the service: train in a virtual environment of
its own beside the project's, e.g. ``python3 -m venv ../torchenv && ../torchenv/bin/pip install
torch==2.13.0 -e .`` (the CPU build; see the tool library's env notes), then
``../torchenv/bin/python tools/learn_board.py``. The service runs the exported weights with
numpy alone.

Data (tools/board_data.py, cached under build/learn_board/): every place with a piece, every
empty place whose base changed, a few untouched ones, of BOARDS boards of each look: TRAIN looks
(then TRAIN_MORE's, for ``--looks`` beyond 200) of the training-only "varied" family
(``board_looks.py``: every property a real table varies drawn widely) and DEV_TRAIN development
looks (every other one through a camera of its own).

Training: the network of board_net.py, Adam on the cross-entropy over the names a place may
have (a stop: empty or a train; any other place: empty or a player colour), the squares cut a
little off their middle (``JITTER_MM``: the reader's pose is not exact either), turned
and mirrored at random (a board has no up for a place's look: the lean and the print round it
turn with the camera) and their colour nudged a little (what the light's correction leaves);
a fixed seed (the same data give the same weights on the same machine).

Then, on TEMPER looks (varied and development, none trained on): the temperature of the scores,
and the bars of a sure reading (``choose_sure``: apart for "empty", a colour and a train, the
train's for stops near a drink and clear of drinks, the lowest confidence at which the sure readings
there were right at least SURE_RIGHT of the time and at most SURE_WRONG_SHARE of the places
sure and wrong, never below the floors). The palette of
the player colours (for "a piece of no player's colour") from the development looks' pieces
clear of drinks.
Reported on HELD_OUT development looks and VARIED_HELD_OUT varied looks -- the places, and the
pieces apart (four in five asked places are empty: a network surer of those can win the total
and leave more pieces in doubt), beside the model before on the same places -- and every station
with a pyramid of every player colour on the simulated table's look and two more dev looks
(benchmarks/board_stations.py: the holes one station on one look makes). None of these seeds is
a seed of the benchmark (dev 1000.., varied 330000.., eval 900000..) or of the tests (below
100); the evaluation family is never used here.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import board_data  # noqa: E402
from net_widths import conv_widths, hidden_width  # noqa: E402
from torch_epochs import run_epochs  # noqa: E402

from companion.board_pieces import PLAYER_COLOURS  # noqa: E402
from companion.vision import board_model, board_net  # noqa: E402

TRAIN = range(300_000, 300_200)        # varied looks for the weights
TRAIN_MORE = range(310_000, 311_000)   # ... and more of them, after TRAIN's (--looks beyond 200)
TEMPER = range(300_200, 300_240)       # ... and for the temperature and the bars
DEV_TRAIN = range(200_000, 200_040)    # development looks for the weights (and the palette)
DEV_TEMPER = range(210_000, 210_010)   # ... and for the temperature and the bars
HELD_OUT = range(220_000, 220_010)     # development looks for the report
VARIED_HELD_OUT = range(320_000, 320_008)
SURE_RIGHT = 0.999            # of the sure readings of the tempering looks, at least this share right
SURE_WRONG_SHARE = 1e-4       # ... and at most this share of their places sure and wrong (1 in 10 000)
SURE_EMPTY_FLOOR = 0.9        # never a lower bar for "empty"
SURE_FLOOR = 0.95             # ... or for a piece
FAR_MARGIN = 1.6              # how far beyond its training pieces a colour still counts as that colour
FAR_LEAST = 5.0               # ... and never nearer than this many spreads (a hue the training looks kept tight)
PALETTE_CLEAR_MM = 40.0       # the palette's pieces stand at least this far from any drink (which may tint them)
# stops this far from every drink have a train's bar of their own: the least of 20, 25, 30, 40 mm at
# which that bar on the tempering looks stayed as low as at 40 (the sure wrong trains stood 9-15 mm
# from a drink; a larger ring only leaves more trains asked)
CLEAR_MM = 20.0
VALUE_PEAK = 4.0              # a value marker's difference from the empty lane, in noise units (a grey marker on a grey lane shows ~5)
EPOCHS = 14
BATCH = 256
SEED = 2029
TRAIN_WEIGHT = 2.0            # a pale train on a pale stop is the hardest piece: weighed up
MEEPLE_WEIGHT = 6.0           # ... and the meeples: a board has at most five among up to 70 pyramids
JITTER_MM = 1.0               # the spread of the random move of a training square's cut (px = mm; at most
                              # the stored margin): the reader's pose is a mm or so off now and then, and a
                              # network trained on squares cut exactly would be surer than it may be


# --- training (PyTorch) -------------------------------------------------------------------------

def train_net(data: dict[str, np.ndarray], epochs: int = EPOCHS, seed: int = SEED,
              init: dict[str, np.ndarray] | None = None, max_lr: float = 3e-3,
              jitter: float = JITTER_MM, piece_weight: float = 1.0, channels: tuple[int, int, int] = board_net.CHANNELS,
              hidden: int = board_net.HIDDEN, threads: int = 1) -> dict[str, np.ndarray]:
    """The network's weights (board_net.PlaceNet's keys), trained on ``data`` (from ``init``'s
    weights and standardisation when given: a run continued on more looks); ``jitter``: the
    spread (mm) of the training squares' cut about their middle; ``channels``, ``hidden``: the
    layers' widths (``init``'s must be the same)."""
    import torch
    from torch import nn
    torch.manual_seed(seed)
    torch.set_num_threads(threads)  # one by default: the machine is shared, as every training tool's
    x = data["x"].astype(np.float32)
    if init is not None:
        mean, std = init["mean"], init["std"]
    else:
        mean, std = x.mean(axis=0), x.std(axis=0)
        std[std < 1e-6] = 1.0
    feats = torch.from_numpy((x - mean) / std)
    # kept in half precision and as cached (NHWC: no copy of several GB for 400 looks) until a
    # batch is cut, then NCHW
    squares = torch.from_numpy(data["squares"].astype(np.float16, copy=False))
    y = torch.from_numpy(data["y"].astype(np.int64))
    mask = torch.from_numpy(board_model.allowed_names(x))
    names = board_model.feature_names()
    lone = (x[:, names.index("kind_meeple")] + x[:, names.index("kind_rider")]) > 0.5
    weight = torch.where(y == board_model.CLASSES.index("train"), TRAIN_WEIGHT, 1.0) * \
        torch.from_numpy(np.where(lone & (data["y"] > 0), MEEPLE_WEIGHT, 1.0).astype(np.float32)) * \
        torch.where(y > 0, piece_weight, 1.0)
    net = place_net_module(x.shape[1], len(board_model.CLASSES), channels, hidden)
    if init is not None:
        net.load_state_dict({f"{layer}.{part}": torch.from_numpy(np.asarray(init[f"{layer}{part[0]}"], np.float32))
                             for layer in ("c1", "c2", "c3", "f1", "f2") for part in ("weight", "bias")})

    def loss_of(idx, gen):
        sq = augment(squares[idx].permute(0, 3, 1, 2), gen, jitter)
        logits = net(sq, feats[idx]).masked_fill(~mask[idx], -1e9)
        return (nn.functional.cross_entropy(logits, y[idx], reduction="none") * weight[idx]).sum() / weight[idx].sum()

    run_epochs(net, len(y), epochs, loss_of, seed, BATCH, max_lr)
    return place_net_weights(net, mean, std)


def place_net_module(features: int, classes: int, channels: tuple[int, int, int] = board_net.CHANNELS,
                     hidden: int = board_net.HIDDEN):
    """The place network (board_net.PlaceNet's layers) as a PyTorch module: three 3x3
    convolutions (``channels`` wide) with pooling over the squares, their maximum beside
    ``features`` standardised numbers, a hidden layer (``hidden``), ``classes`` scores (the drink
    network is the same with its own). Any widths load alike at run time: PlaceNet takes the
    weights' shapes."""
    import torch
    from torch import nn
    c1, c2, c3 = channels

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1, self.c2, self.c3 = nn.Conv2d(6, c1, 3), nn.Conv2d(c1, c2, 3), nn.Conv2d(c2, c3, 3)
            self.f1 = nn.Linear(c3 + features, hidden)
            self.f2 = nn.Linear(hidden, classes)

        def forward(self, sq, z):
            h = nn.functional.max_pool2d(torch.relu(self.c1(sq)), 2)
            h = nn.functional.max_pool2d(torch.relu(self.c2(h)), 2)
            h = torch.relu(self.c3(h))
            pooled = h.amax(dim=(2, 3))
            return self.f2(torch.relu(self.f1(torch.cat([pooled, z], dim=1))))

    return Net()


def place_net_weights(net, mean: np.ndarray, std: np.ndarray) -> dict[str, np.ndarray]:
    """A trained place-network module's weights under board_net.PlaceNet's keys, with the
    standardisation of its numbers."""
    sd = {name: v.detach().numpy() for name, v in net.state_dict().items()}
    return {"c1w": sd["c1.weight"], "c1b": sd["c1.bias"], "c2w": sd["c2.weight"], "c2b": sd["c2.bias"],
            "c3w": sd["c3.weight"], "c3b": sd["c3.bias"], "f1w": sd["f1.weight"], "f1b": sd["f1.bias"],
            "f2w": sd["f2.weight"], "f2b": sd["f2.bias"], "mean": mean, "std": std}


def augment(sq, gen, jitter: float = JITTER_MM):
    """A batch of squares cut to the network's size a little off their middle (per square, by
     ``jitter``'s spread, at most the stored margin), turned by a multiple of 90 degrees,
    perhaps mirrored, the frame's half nudged in colour (per square and channel, in log: the
    light's correction is never exact)."""
    import torch
    sq = jittered(sq, gen, jitter)
    turns = int(torch.randint(0, 4, (1,), generator=gen))
    sq = torch.rot90(sq, turns, dims=(2, 3))
    if int(torch.randint(0, 2, (1,), generator=gen)):
        sq = torch.flip(sq, dims=(3,))
    nudge = torch.randn(len(sq), 3, 1, 1, generator=gen) * 0.04 + torch.randn(len(sq), 1, 1, 1, generator=gen) * 0.06
    sq = sq.clone()
    sq[:, :3] += nudge
    return sq.clamp(*board_net.CLIP)


def jittered(sq, gen, jitter: float = JITTER_MM, size: int = board_net.PATCH):
    """Each of the squares (n, 6, S, S) cut to ``size`` about a point moved from its middle by a
    rounded normal step (spread ``jitter`` mm, clipped to the margin S leaves), as float32."""
    import torch
    margin = (sq.shape[2] - size) // 2
    if margin <= 0:
        return sq.float()
    n = len(sq)
    step = (torch.randn(n, 2, generator=gen) * jitter).round().clamp(-margin, margin).long() + margin
    rows = step[:, 1, None] + torch.arange(size)                    # (n, size)
    cols = step[:, 0, None] + torch.arange(size)
    idx = torch.arange(n)[:, None, None, None]
    chan = torch.arange(sq.shape[1])[None, :, None, None]
    return sq[idx, chan, rows[:, None, :, None], cols[:, None, None, :]].float()


# --- after training (numpy) ---------------------------------------------------------------------

def probabilities(net: board_net.PlaceNet, data: dict, temperature: float = 1.0) -> np.ndarray:
    """Per place of ``data``, the probability of each name, as the reader has them."""
    settings = {"inputs": board_model.feature_names(), "classes": list(board_model.CLASSES), "temperature": temperature}
    return board_model.SpotModel(settings, net).probabilities_of(data["squares"], data["x"])


def fit_temperature(net: board_net.PlaceNet, data: dict) -> float:
    p1 = probabilities(net, data)
    logp = np.log(np.maximum(p1.astype(np.float64), 1e-300))
    y = data["y"].astype(int)
    best = (np.inf, 1.0)
    for temp in np.exp(np.linspace(np.log(0.3), np.log(4.0), 61)):
        z = logp / temp
        z = z - z.max(axis=1, keepdims=True)
        loss = float(-(z[np.arange(len(y)), y] - np.log(np.exp(z).sum(axis=1))).mean())
        best = min(best, (loss, float(temp)))
    return round(best[1], 4)


def choose_sure(p: np.ndarray, y: np.ndarray, places: int, drink_mm: np.ndarray) -> tuple[dict, dict]:
    """The bars of a sure reading, apart for "empty", a player colour and a train (a station or
    field asks "which colour?", a stop "a train or nothing?": their mistakes lie at other
    confidences), the train's apart again for stops with a drink within CLEAR_MM (``drink_mm``)
    and stops clear of drinks (a drink's body beside a stop is what passes for a train). For
    each, the lowest confidence from its floor up at which the tempering places so read were
    right at least SURE_RIGHT of the time and at most SURE_WRONG_SHARE of the ``places`` (every
    place of those boards, the untouched ones read empty by the reader's gate included; the
    trains' share split between near and clear by their asked places) sure and wrong. Returns
    the settings as the model names them."""
    conf, best = p.max(axis=1), p.argmax(axis=1)
    ok = best == y
    is_train = best == board_model.CLASSES.index("train")
    clear = drink_mm >= CLEAR_MM
    trains = max(int(is_train.sum()), 1)
    groups = (("sure_empty", best == 0, SURE_EMPTY_FLOOR, 1.0), ("sure", (best > 0) & ~is_train, SURE_FLOOR, 1.0),
              ("sure_train", is_train & ~clear, SURE_FLOOR, (is_train & ~clear).sum() / trains),
              ("clear_train", is_train & clear, SURE_FLOOR, (is_train & clear).sum() / trains))
    bars: dict = {}
    sure = np.zeros(len(y), bool)
    for name, sel, floor, share in groups:
        bar = 0.99999
        for t in np.round(np.arange(floor, 0.99999, 0.00025), 5):
            s = sel & (conf >= t)
            if s.any() and ok[s].mean() >= SURE_RIGHT and (s & ~ok).sum() <= SURE_WRONG_SHARE * places * share:
                bar = float(t)
                break
        bars[name] = bar
        sure |= sel & (conf >= bar)
    bars["clear_of_drinks"] = {"mm": CLEAR_MM, "sure_train": bars.pop("clear_train")}
    return bars, {"asked": int(len(y)), "sure": int(sure.sum()), "wrong_sure": int((sure & ~ok).sum()),
                  "unsure": int((~sure).sum())}


def palette(x: np.ndarray, y: np.ndarray, drink_mm: np.ndarray | None = None) -> tuple[dict, dict, dict]:
    """Each player colour's hue (log b/g, log r/g of the piece against the paper's) as the
    development looks showed it: the median, the robust spread (MAD) per axis, and the bar of
    "not this colour": FAR_MARGIN times the distance (in spreads) that all but 1 in 2000
    training pieces of the colour stay within. Brightness is left out: shade changes it. Pieces
    within PALETTE_CLEAR_MM of a drink (``drink_mm``) are left out: a drink's colour over or
    beside a piece would widen every colour's bar until an orange piece passed for yellow."""
    if drink_mm is not None:
        clear = drink_mm >= PALETTE_CLEAR_MM
        x, y = x[clear], y[clear]
    names = board_model.feature_names()
    cols = [names.index("chroma_bg"), names.index("chroma_rg")]
    pal, spread, far = {}, {}, {}
    for i, c in enumerate(PLAYER_COLOURS, start=1):
        v = x[y == i][:, cols]
        if len(v) < 20:
            continue
        m = np.median(v, axis=0)
        sd = np.maximum(1.4826 * np.median(np.abs(v - m), axis=0), 0.03)
        d = np.sqrt((((v - m) / sd) ** 2).sum(axis=1))
        pal[c], spread[c] = m.tolist(), sd.tolist()
        far[c] = round(max(FAR_MARGIN * float(np.quantile(d, 0.9995)), FAR_LEAST), 3)
    return pal, spread, far


def report(model: board_model.SpotModel, data: dict, title: str) -> None:
    """How the model reads the asked places of ``data`` (the reader's gate passed) and how many
    pieces the gate itself would have called empty; the pieces apart (most places are empty: a
    network surer of them can win the places' total and still leave more pieces in doubt)."""
    gate = board_model.asked(data["x"])
    p = model.probabilities_of(data["squares"][gate], data["x"][gate])
    y = data["y"][gate].astype(int)
    conf, best = p.max(axis=1), p.argmax(axis=1)
    sure = conf >= model.bars(best, data["drink_mm"][gate] >= model.clear_mm if "drink_mm" in data else None)
    ok = best == y
    places = int(data["counts"][0])
    missed = int((data["y"][~gate] > 0).sum())
    print(f"{title}: {places} places, {len(y)} asked; right {ok.mean():.5f}; sure and wrong {int((sure & ~ok).sum())} "
          f"({100 * (sure & ~ok).sum() / places:.4f} % of places); unsure {int((~sure).sum())} "
          f"({100 * (~sure).sum() / places:.4f} %); pieces the gate calls empty {missed}")
    piece = y > 0
    print(f"  pieces {int(piece.sum())}: sure and right {(sure & ok)[piece].mean():.4f}  unsure "
          f"{(~sure)[piece].mean():.4f}  sure and wrong {int((sure & ~ok)[piece].sum())}")
    for i, c in enumerate(board_model.CLASSES):
        sel = y == i
        if sel.any():
            print(f"  {c:8s} {int(sel.sum()):7d}  right {ok[sel].mean():.4f}  unsure {(~sure[sel]).mean():.4f}  "
                  f"sure+wrong {int((sure & ~ok)[sel].sum())}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--measure", action="store_true", help="only report the committed model")
    ap.add_argument("--model", help="with --measure: report this model instead (<spots.json>,<net.npz>)")
    ap.add_argument("--bars", action="store_true",
                    help="only set the temperature, the bars and the palette again (the committed network kept)")
    ap.add_argument("--looks", type=int, default=None,
                    help=f"how many training looks (of TRAIN, then TRAIN_MORE: at most {len(TRAIN) + len(TRAIN_MORE)})")
    ap.add_argument("--threads", type=int, default=1, help="PyTorch's threads (1: the machine is shared)")
    ap.add_argument("--epochs", type=int, default=EPOCHS)
    ap.add_argument("--jitter", type=float, default=JITTER_MM,
                    help="spread (mm) of the training squares' cut about their middle (0: cut in the middle)")
    ap.add_argument("--piece-weight", type=float, default=1.0,
                    help="every piece's weight in the loss against an empty place's (a piece left unsure costs a move)")
    ap.add_argument("--init", type=Path, help="continue from these weights (an npz of a run before)")
    ap.add_argument("--empty-share", type=float, default=1.0,
                    help="train on this share of the kept empty places (all pieces are kept)")
    ap.add_argument("--workers", type=int, default=1, help="processes rendering the looks not cached yet")
    ap.add_argument("--widths", type=conv_widths(3), default=board_net.CHANNELS,
                    help="the three convolutions' widths, e.g. 24,48,64 (default: board_net.CHANNELS)")
    ap.add_argument("--hidden", type=hidden_width, default=board_net.HIDDEN,
                    help="the hidden layer's width (default: board_net.HIDDEN)")
    args = ap.parse_args(argv)
    most = len(TRAIN) + len(TRAIN_MORE)
    if args.looks is not None and not 1 <= args.looks <= most:
        ap.error(f"--looks {args.looks}: give 1 to {most} (the training looks TRAIN and TRAIN_MORE hold)")
    if not 1 <= args.threads <= 64:
        ap.error(f"--threads {args.threads}: give 1 to 64")
    looks = [*TRAIN, *TRAIN_MORE][:args.looks] if args.looks is not None else list(TRAIN)
    jobs = board_data.looks_of(varied=(*([] if args.measure or args.bars else looks), *TEMPER, *VARIED_HELD_OUT),
                               dev=(*DEV_TRAIN, *DEV_TEMPER, *HELD_OUT))
    board_data.render_all(jobs, args.workers)
    if args.measure:
        model = board_model.spot_model(*args.model.split(",")) if args.model else board_model.spot_model()
        report(model, board_data.collect(board_data.looks_of(dev=HELD_OUT)), "held-out dev looks")
        report(model, board_data.collect(board_data.looks_of(varied=VARIED_HELD_OUT)), "held-out varied looks")
        station_report({args.model or "committed": model})
        return 0
    if args.bars:
        with np.load(board_net.NET_PATH) as d:
            weights = {k: d[k] for k in d.files}
        finish(weights, board_data.collect(board_data.looks_of(dev=DEV_TRAIN)))
        return 0
    dev = board_data.collect(board_data.looks_of(dev=DEV_TRAIN), crop=False)
    # the varied and dev looks gathered in one (two gathered apart and joined would be a second copy)
    data = board_data.collect(board_data.looks_of(varied=looks, dev=DEV_TRAIN), crop=False)
    if args.empty_share < 1.0:
        keep = (data["y"] > 0) | (np.random.default_rng(SEED).random(len(data["y"])) < args.empty_share)
        data = {**{k: data[k][keep] for k in ("squares", "x", "y")}, "counts": data["counts"]}
    print(f"training on {len(data['y'])} places ({np.bincount(data['y'], minlength=7).tolist()})", file=sys.stderr)
    init = None
    if args.init:
        with np.load(args.init) as d:
            init = {k: d[k] for k in d.files}
    weights = train_net(data, epochs=args.epochs, init=init, max_lr=1.5e-3 if init else 3e-3, jitter=args.jitter,
                        piece_weight=args.piece_weight, channels=args.widths, hidden=args.hidden, threads=args.threads)
    np.savez(board_data.CACHE / "last_weights.npz", **weights)
    finish(weights, dev)
    return 0


def finish(weights: dict[str, np.ndarray], dev: dict[str, np.ndarray]) -> None:
    """The temperature and the bars (on the tempering looks), the palette (the development
    training looks), the model written, and its report on the held-out looks."""
    net = board_net.PlaceNet(weights)
    temper = board_data.collect(board_data.looks_of(varied=TEMPER, dev=DEV_TEMPER))
    gate = board_model.asked(temper["x"])
    asked = {k: temper[k][gate] for k in ("squares", "x", "y")}
    temperature = fit_temperature(net, asked)
    bars, got = choose_sure(probabilities(net, asked, temperature), asked["y"].astype(int), int(temper["counts"][0]),
                            temper["drink_mm"][gate])
    print(f"temperature {temperature}, bars {bars}: {got}")
    pal, spread, far = palette(dev["x"], dev["y"], dev.get("drink_mm"))
    settings = {"inputs": board_model.feature_names(), "classes": list(board_model.CLASSES),
                "temperature": temperature, **bars,
                "palette": pal, "palette_spread": spread, "far": far, "value_peak": VALUE_PEAK}
    before = board_model.spot_model.__wrapped__() if board_model.MODEL_PATH.exists() else None
    board_model.save(settings, weights)
    model = board_model.spot_model.__wrapped__()
    for held_out, title in ((board_data.looks_of(dev=HELD_OUT), "held-out dev looks"),
                            (board_data.looks_of(varied=VARIED_HELD_OUT), "held-out varied looks")):
        data = board_data.collect(held_out)
        report(model, data, title)
        if before is not None:
            report(before, data, "  ... the model before, on the same places")
    station_report({"new": model, **({"before": before} if before is not None else {})})


def station_report(models: dict[str, board_model.SpotModel]) -> None:
    """Every station with a pyramid of every player colour on the simulated table's look and two
    more dev looks, read by the whole reader (benchmarks/board_stations.py): the holes the
    held-out places average away -- a station and colour left unsure in half its readings."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import board_stations
    for name, t in board_stations.sweep(models).items():
        print(board_stations.line(f"stations x colours, {name}", board_stations.summary(t)))


if __name__ == "__main__":
    sys.exit(main())
