"""From the crates settling to the proposed move (issue 31): the crate camera's table side.

Seeded games of GRAPE SODA, YUZU and the exploding cans (two people each, over a real SQLite
store) are played with random legal moves; before each move (GRAPE SODA: each whole turn of a
crate and a drink, two moves) the crates it leaves are read (CrateReadings of those fields, a
quarter turn round as a camera may see them, three frames over SETTLE_S); the third frame
settles them. Timed: that frame's feed (the comparison, the search of table/crate_moves.py, the
proposal). Reported per game: proposals (one explanation), questions (several), none, and
whether the moves made are the proposal (or among the candidates); then the moves are confirmed
through the watch, as a tap would.

Run:  .venv/bin/python benchmarks/crate_proposal.py --games 2 --turns 20
Prints a line per game on stderr and the figures as JSON on stdout.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.crate_fields import CrateReading, turned  # noqa: E402
from companion.sim.table import SIM_TABLE  # noqa: E402
from companion.table.crate_moves import game_fields  # noqa: E402
from companion.table.session import TableSession  # noqa: E402
from companion.table.store import EventStore  # noqa: E402
from companion.table.watch import SETTLE_S  # noqa: E402

GAMES = ("grape_soda", "yuzu", "exploding_cans")


def outcome(game, state) -> str:
    return json.dumps({k: v for k, v in game.view(state, None).items() if k != "last"}, sort_keys=True, default=str)


def play(store: EventStore, name: str, seed: int, turns: int) -> dict:
    session = TableSession.create(store, name, ["Aki", "Ben"], seed=seed, automation=SIM_TABLE)
    watch = session.crate_watch
    rng = random.Random(seed)
    clock = [0.0]

    def show(state, timed: bool = False) -> str | None:
        out = None
        fields = turned(game_fields(session.game, state), 1)
        for _ in range(3):
            clock[0] += SETTLE_S / 2
            t0 = time.perf_counter()
            out = watch.feed(CrateReading.of(fields), at=clock[0]) or out
            took = time.perf_counter() - t0
        if timed:
            times.append(took * 1000)
        return out

    times: list[float] = []
    tally = {"proposal": 0, "question": 0, "differences": 0, "right": 0, "wrong": 0}
    show(session.state)   # the start, matched (and the turn learnt where the grid says it)
    for _ in range(turns):
        if session.over:
            break
        seat = session.game.pending(session.state)[0].actor
        moves = []
        state = session.state
        for _ in range(2 if name == "grape_soda" else 1):
            legal = [m for m in session.game.legal_moves(state, seat)] if not session.game.is_over(state) else []
            if not legal or (moves and session.game.pending(state)[0].actor != seat):
                break
            move = rng.choice(legal)
            moves.append(move)
            state = session.game.apply(state, move)[0]
        what = show(state, timed=True)
        tally[what if what in tally else "differences"] += 1
        shown = watch.to_json()
        if watch.proposal is None:
            for move in moves:   # a tap
                session.submit(move, None)
            show(session.state)
            continue
        options = watch.proposal.candidates
        want = outcome(session.game, state)
        pick = next((i for i, c in enumerate(options)
                     if outcome(session.game, _after(session.game, session.state, c)) == want), None)
        tally["right" if pick is not None else "wrong"] += 1
        watch.confirm(shown["proposal"]["id"], pick if len(options) > 1 else None, None) if pick is not None else None
        if pick is None:
            for move in moves:
                session.submit(move, None)
        show(session.state)
    return {"game": name, "seed": seed, "changes": len(times), "feed_ms": times, **tally}


def _after(game, state, moves):
    for m in moves:
        state = game.apply(state, m)[0]
    return state


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2, help="seeded games of each")
    ap.add_argument("--turns", type=int, default=20)
    args = ap.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "data")
        for name in GAMES:
            for seed in range(1, args.games + 1):
                r = play(store, name, seed, args.turns)
                results.append(r)
                print(f"{name} seed {seed}: {r['proposal']} proposals, {r['question']} questions, "
                      f"{r['differences']} none; right {r['right']}, wrong {r['wrong']}", file=sys.stderr)
    out = {}
    for name in GAMES:
        rs = [r for r in results if r["game"] == name]
        ms = sorted(t for r in rs for t in r["feed_ms"])
        out[name] = {k: sum(r[k] for r in rs) for k in ("proposal", "question", "differences", "right", "wrong")}
        out[name].update({"settling_frames": len(ms), "median_ms": round(statistics.median(ms), 1),
                          "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 1), "max_ms": round(ms[-1], 1)})
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
