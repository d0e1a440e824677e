"""Every station with a pyramid of every player colour, read by the board camera's reader
(issue 29): the holes a held-out report over random boards averages away.

A held-out report counts places over random boards, most of them empty: a network that reads
empty places surer and pieces less sure can win it and still leave one station's pyramid in
doubt on one look every time (the sixth session's network asked a plain red pyramid at
Iidabashi on the simulated table's own look in 16 of 30 boards). So here each look (the
simulated board camera's, ``SimBoardCamera``: ``SIM_BOARD_SEED`` first, then a few more dev
looks) shows every station with a pyramid of each player colour in turn: REPEATS x 5 colour
rounds x GROUPS boards, each board a quarter of the stations (the colour of station i in round k
is colour (i + k) mod 5), every piece placed afresh as a person puts it (1-2 mm and a few degrees
off its spot). Each model given (``--model spots.json,net.npz``; the committed one by default)
reads the same frames with the whole reader. Reported per model: the pieces read sure and right,
unsure, sure and wrong; per colour; how many stations were ever left unsure; the holes: a
station and colour whose pyramid was unsure or wrong in at least half of its readings (REPEATS
of them per look); the empty stations between them read sure and wrong or unsure.

Development looks only (the evaluation family is scored by benchmarks/board.py, never looked at
per place).

Run:   .venv/bin/python benchmarks/board_stations.py                       (the sim look and dev 1000, 1001)
       .venv/bin/python benchmarks/board_stations.py --model committed \\
           --model /work/notes/board_spots_retrained.json,/work/notes/board_net_retrained.npz
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.append(str(Path(__file__).resolve().parents[1]))   # after PYTHONPATH: another checkout may go first

from companion.board_layout import BoardLayout  # noqa: E402
from companion.board_pieces import PLAYER_COLOURS, Pieces  # noqa: E402
from companion.sim.board_camera import SIM_BOARD_SEED, SimBoardCamera  # noqa: E402
from companion.vision.board_model import SpotModel, spot_model  # noqa: E402
from companion.vision.board_pose import empty_reference  # noqa: E402
from companion.vision.board_read import BoardReader  # noqa: E402

LOOKS = (SIM_BOARD_SEED, 1000, 1001)   # dev looks: the simulated table's own, two of the benchmark's
REPEATS = 4                            # readings of each station and colour per look
GROUPS = 4                             # a board holds every GROUPS-th station: ~37 pyramids, as a game's


def model_of(name: str) -> SpotModel:
    """``committed`` or ``<spots.json>,<net.npz>``."""
    return spot_model() if name == "committed" else spot_model(*name.split(","))


def boards(layout: BoardLayout, repeats: int = REPEATS, groups: int = GROUPS):
    """The boards of one look: every station holds every player colour ``repeats`` times."""
    stations = list(layout.pyramids)
    n = len(PLAYER_COLOURS)
    for _ in range(repeats):
        for k in range(n):
            for g in range(groups):
                yield Pieces(pyramids={s: PLAYER_COLOURS[(i + k) % n] for i, s in enumerate(stations)
                                       if i % groups == g})


def sweep(models: dict[str, SpotModel], looks=LOOKS, repeats: int = REPEATS, groups: int = GROUPS,
          layout: BoardLayout | None = None) -> dict[str, dict]:
    """Per model name, the tally over ``looks``: pieces right / unsure / wrong, per colour, per
    (look, station) how often its pyramid was unsure and wrong, the empty stations' misses."""
    layout = layout or BoardLayout.default()
    out = {name: {"pieces": 0, "right": 0, "unsure": 0, "wrong": 0, "empty": 0, "empty_unsure": 0,
                  "empty_wrong": 0, "colours": {c: [0, 0, 0] for c in PLAYER_COLOURS}, "stations": {}}
           for name in models}
    for look in looks:
        cam = SimBoardCamera(seed=look, look_seed=look)
        empty = cam.empty_frame()
        reference, tracker = empty_reference(empty, layout, refine=True)
        if reference is None:
            continue
        readers = {name: BoardReader(layout, reference, model=m, tracker=tracker) for name, m in models.items()}
        first = next(iter(readers.values()))
        for pieces in boards(layout, repeats, groups):
            cam.set(pieces, hand_frames=0)
            frame = cam.read()
            pose = first.align.pose(frame, tracker.locate(frame))
            sheet = first.sheet(frame, pose)     # the same sheet for every model
            for name, reader in readers.items():
                tally(out[name], look, layout, pieces, reader.read_sheet(sheet, pose))
    return out


def tally(t: dict, look: int, layout: BoardLayout, truth: Pieces, reading) -> None:
    unsure = set(reading.unsure)
    for sid in layout.pyramids:
        want, got = truth.pyramids.get(sid), reading.pieces.pyramids.get(sid)
        doubt = f"station:{sid}" in unsure
        if want is None:
            t["empty"] += 1
            t["empty_unsure"] += doubt
            t["empty_wrong"] += (not doubt) and got is not None
            continue
        wrong = (not doubt) and got != want
        t["pieces"] += 1
        t["right"] += (not doubt) and not wrong
        t["unsure"] += doubt
        t["wrong"] += wrong
        c = t["colours"][want]
        c[0] += 1
        c[1] += doubt
        c[2] += wrong
        s = t["stations"].setdefault(f"{look}:{sid}:{want}", [0, 0, 0])
        s[0] += 1
        s[1] += doubt
        s[2] += wrong


def holes(t: dict, share: float = 0.5) -> list[str]:
    """The (look, station, colour)s whose pyramid was unsure or wrong in at least ``share`` of its
    readings."""
    return sorted(k for k, (n, u, w) in t["stations"].items() if u + w >= share * n)


def summary(t: dict) -> dict:
    pct = lambda a, b: round(100.0 * a / max(b, 1), 3)  # noqa: E731
    return {"pieces": t["pieces"], "right_pct": pct(t["right"], t["pieces"]),
            "unsure_pct": pct(t["unsure"], t["pieces"]), "wrong": t["wrong"],
            "per_colour_unsure_pct": {c: pct(u, n) for c, (n, u, _) in t["colours"].items()},
            "stations_ever_unsure": len({k.rpartition(":")[0] for k, (n, u, w) in t["stations"].items() if u + w}),
            "holes": holes(t), "empty_stations": t["empty"], "empty_unsure": t["empty_unsure"],
            "empty_wrong": t["empty_wrong"]}


def line(title: str, s: dict) -> str:
    """A model's :func:`summary` in one line."""
    return (f"{title}: {s['pieces']} pyramids, right {s['right_pct']} %, unsure {s['unsure_pct']} %, sure and "
            f"wrong {s['wrong']}; unsure per colour {s['per_colour_unsure_pct']}; stations ever unsure "
            f"{s['stations_ever_unsure']}; holes (a station and colour unsure in half its readings or more) "
            f"{len(s['holes'])}: {' '.join(s['holes'][:20])}; empty stations {s['empty_stations']}: unsure "
            f"{s['empty_unsure']}, sure and wrong {s['empty_wrong']}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", action="append", help="committed (default) or <spots.json>,<net.npz>; repeatable")
    ap.add_argument("--looks", type=int, nargs="+", default=list(LOOKS), help="dev look seeds")
    ap.add_argument("--repeats", type=int, default=REPEATS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    names = args.model or ["committed"]
    res = {n: summary(t) for n, t in sweep({n: model_of(n) for n in names}, args.looks, args.repeats).items()}
    for n, s in res.items():
        print(line(f"{n}, dev looks {args.looks}", s))
    if args.json:
        print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
