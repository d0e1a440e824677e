"""From a throw to the table's proposal (issue 32, item 9): the landing camera's table side, end to end.

Seeded games of the upside-down tower and LEMON SQUASH (three people, a real SQLite store) are
brought to where they wait for landings; the simulated table's chance decides where the drinks
land (table/landing_device.py's ``tower_throw``/``short_can_throw``, as in ``companion serve``), the
simulated landing camera of a look of the family (``dev`` seeds from 1000, ``eval`` seeds from
940000: never tuned on) lays them out and draws the frames (a hand lifting the tower, then the
still scene), the reader reads each (the vision reader calibrated from that camera's photo of the
mat, or ``--truth``: the scene's truth), and the watch settles and proposes. Per round: a
**proposal** right (the moves are the truth) or **wrong** (what must stay at zero: a host who
trusts it enters a wrong landing), a **question** with the truth among its answers (the host taps
it) or without it, or **nothing** proposed (right when every thrown drink stuck in the tower), or **not calibrated** (the
mat not found in the look's calibration photo). Timed: the reader's ms a frame and the watch's ms for
the frame that settles (the comparison and ``landing_moves.explain``).

Run:  .venv/bin/python benchmarks/landing_proposal.py --rounds 10 [--family dev|eval] [--first SEED] [--truth]
Prints a line per round on stderr (dev only: the eval family is only scored) and the figures as JSON on stdout.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.landing import truth  # noqa: E402
from companion.rules.engine import CHANCE  # noqa: E402
from companion.sim.landing_camera import SimLandingCamera  # noqa: E402
from companion.sim.table import SIM_TABLE  # noqa: E402
from companion.table.landing_device import short_can_throw, tower_throw  # noqa: E402
from companion.table.landing_moves import wanted  # noqa: E402
from companion.table.session import TableSession  # noqa: E402
from companion.table.store import EventStore  # noqa: E402
from companion.table.watch import SETTLE_S  # noqa: E402

SEEDS = {"dev": 1000, "eval": 940000}
STILL_FRAMES = 4          # still frames read after the hand: three settle, one to spare


def present(_game_id):
    return {"present": True, "simulated": True, "feeding": True, "problem": None}


def to_landing(session) -> None:
    """Everyone makes the first move offered until the game waits for landings."""
    for _ in range(300):
        if wanted(session.game, session.state) is not None:
            return
        actor = session.game.pending(session.state)[0].actor
        moves = sorted(session.game.legal_moves(session.state, actor), key=lambda m: str(m.args))
        session.submit(moves[0], actor)
    raise RuntimeError("the game never waited for a landing")


def expected_moves(want, scene_truth, wants) -> list:
    """The moves the truth asks for: each thrown drink's spot (stuck: not on the table), or the
    units farthest first (n - 1 of them)."""
    seen = {x.drink: x for x in scene_truth.landings}
    if want.kind == "land":
        return [["land", d, seen[d].spot if d in seen else "stuck"] for d in want.drinks]
    order = sorted(want.units, key=lambda u: -seen[want.drinks[want.units.index(u)]].distance_mm)
    return [["farthest", u] for u in order[:-1]]


def as_list(moves) -> list:
    return [["land", m.args["drink"], m.args["spot"]] if m.kind == "land" else ["farthest", m.args["unit"]]
            for m in moves]


def one_round(store, game: str, seed: int, family: str, use_truth: bool) -> dict:
    session = TableSession.create(store, game, ["Aki", "Ben", "Chi"], seed=seed, automation=SIM_TABLE,
                                  landing_camera=present)
    to_landing(session)
    want = wanted(session.game, session.state)
    draw = tower_throw if want.kind == "land" else short_can_throw
    wants = draw(session.game, session.state, want, SIM_TABLE, f"{seed}:landing")
    camera = SimLandingCamera(seed=seed, family=family)
    if use_truth:
        reader = camera.truth_reader()
    else:
        from companion.vision.landing_calibrate import calibrate_landing
        from companion.vision.landings import LandingReader
        try:
            reader = LandingReader(calibrate_landing(camera.calibration_photo()))
        except ValueError:   # the mat not found in this look's photo: the host would be told, taps go on
            return {"game": game, "seed": seed, "verdict": "not_calibrated", "outcome": None, "read_ms": [],
                    "settle_ms": None, "goal": None, "first": None, "candidates": 0, "truth_spots": []}
    camera.show(wants, hand_frames=3)
    goal = expected_moves(want, camera.truth_now(), wants)
    watch = session.landing_watch
    read_ms, settle_ms, outcome = [], None, None
    for i in range(3 + STILL_FRAMES):
        frame = camera.read()
        t0 = time.perf_counter()
        reading = reader.read(frame, want.drinks)
        read_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        out = watch.feed(reading, at=i * SETTLE_S / 2)
        if out in ("proposal", "question", "differences", "matches"):
            settle_ms, outcome = (time.perf_counter() - t0) * 1000, out
            break
    proposal = watch.proposal
    options = [as_list(c) for c in proposal.candidates] if proposal is not None else []
    if proposal is None:   # right when no asked drink lies on the table (all stuck in the tower)
        verdict = "nothing_right" if not wants else "nothing"
    elif len(options) == 1:
        verdict = "proposal_right" if options[0] == goal else "proposal_wrong"
    else:
        verdict = "question_with_truth" if goal in options else "question_without"
    return {"game": game, "seed": seed, "verdict": verdict, "outcome": outcome, "read_ms": read_ms,
            "settle_ms": settle_ms, "goal": goal, "first": options[0] if options else None,
            "candidates": len(options), "truth_spots": [x.spot for x in truth(camera.scene).landings]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="rounds a game (default 10)")
    parser.add_argument("--family", choices=sorted(SEEDS), default="dev")
    parser.add_argument("--first", type=int, help="the first round's seed (the family's by default: dev 1000, eval "
                                                  "940000; a fresh report takes eval seeds never used before)")
    parser.add_argument("--truth", action="store_true", help="read by the scene's truth (the table side alone)")
    args = parser.parse_args(argv)
    if args.family == "eval" and args.first is not None and args.first < SEEDS["eval"]:
        parser.error(f"evaluation seeds start at {SEEDS['eval']}")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "data")
        try:
            for game in ("upside_down_tower", "lemon_squash"):
                for i in range(args.rounds):
                    first = SEEDS[args.family] if args.first is None else args.first
                    r = one_round(store, game, first + i, args.family, args.truth)
                    results.append(r)
                    if args.family != "eval":       # the eval family is only scored: its totals alone
                        print(f"{game} seed {r['seed']}: {r['verdict']} ({r['candidates']} candidates) "
                              f"goal {r['goal']} first {r['first']}", file=sys.stderr)
        finally:
            store.close()
    verdicts = ["proposal_right", "proposal_wrong", "question_with_truth", "question_without", "nothing",
                "nothing_right", "not_calibrated"]
    reads = [ms for r in results for ms in r["read_ms"]]
    settles = [r["settle_ms"] for r in results if r["settle_ms"] is not None]
    summary = {
        "family": args.family, "reader": "truth" if args.truth else "vision", "rounds": len(results),
        **{v: sum(r["verdict"] == v for r in results) for v in verdicts},
        "by_game": {g: {v: sum(r["verdict"] == v for r in results if r["game"] == g) for v in verdicts}
                    for g in ("upside_down_tower", "lemon_squash")},
        "read_ms_median": round(statistics.median(reads), 1) if reads else None,
        "settle_ms_median": round(statistics.median(settles), 2) if settles else None,
        "settle_ms_max": round(max(settles), 2) if settles else None,
    }
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
