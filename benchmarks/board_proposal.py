"""From the board settling to the proposed move on the tablet (issue 29, target: within 1 s).

Two measurements, both on real TOKYO METRO sessions over a real SQLite store:

- ``table`` (default): seeded games of four people are played move by move; before each move
  that changes the board, the board it leaves is read (BoardReadings of those pieces, three
  frames over SETTLE_S); the third frame settles it. Timed: that frame's feed (the comparison,
  the search of table/board_moves.py, the proposal) plus the table view computed and encoded as
  the live views send it (what reaches the tablet, but the network). Reported per kind of move,
  with the share of moves proposed (one explanation), asked (several) or unexplained.
- ``--device N``: the board camera's thread with the simulated board camera and the board
  reader: N times the simulated players make a move on the board (a hand passes, the pieces
  change); timed from the settling frame's capture (the proposal's ``settled_at``) to the
  proposal being there (``proposed_at``, and when this process saw it in the view). The reading
  of that frame is part of it. ``--real-camera``: every frame with noise of its own, as a real
  camera's (the simulated one shows a still scene as three copies in turn, read once each);
  ``--still S``: first S seconds of a still board, and what the camera's thread spent on its
  frames then (CPU seconds a minute: the reader, and the frame gate of table/frame_gate.py that
  spares it frames showing nothing new); ``--no-gate``: every frame read (as before the gate).

Run:  .venv/bin/python benchmarks/board_proposal.py --games 3
      .venv/bin/python benchmarks/board_proposal.py --device 10
      .venv/bin/python benchmarks/board_proposal.py --device 10 --real-camera --still 30 [--no-gate]
Prints a line per game (or move) on stderr and the figures as JSON on stdout.
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

from companion.board_pieces import BoardReading  # noqa: E402
from companion.rules.engine import Move  # noqa: E402
from companion.sim.table import SIM_TABLE  # noqa: E402
from companion.table.board_moves import expected  # noqa: E402
from companion.table.board_watch import SETTLE_S  # noqa: E402
from companion.table.session import TableSession  # noqa: E402
from companion.table.store import EventStore  # noqa: E402
from companion.table.tables import Tables  # noqa: E402

NAMES = ["Aki", "Ben", "Chie", "Dai"]


def figures(ms: list[float]) -> dict:
    if not ms:
        return {"n": 0}
    ms = sorted(ms)
    return {"n": len(ms), "median_ms": round(statistics.median(ms), 1),
            "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 1), "max_ms": round(ms[-1], 1)}


def bid(session: TableSession, rng: random.Random) -> bool:
    """Every seat that still bids does (from its phone); True when there were bids to make."""
    made = False
    for pending in session.game.pending(session.state):
        if session.state.phase != "bid":
            break
        amounts = session.game.legal_moves(session.state, pending.actor)
        session.submit(rng.choice(amounts[:4]), viewer=pending.actor)
        made = True
    return made


def play_table(seed: int, moves: int) -> list[dict]:
    """One game played to the end (or ``moves`` board changes), every board change read first."""
    store = EventStore(Path(tempfile.mkdtemp(prefix="board-proposal-")))
    session = TableSession.create(store, "tokyo_metro", NAMES, seed=seed, automation=SIM_TABLE)
    watch, rng, t, out = session.board_watch, random.Random(seed), 0.0, []
    watch.feed(BoardReading(pieces=expected(session.state), markers=4, pose="locked"), at=t)
    while not session.over and len(out) < moves:
        if session.state.phase == "bid" and bid(session, rng):
            continue
        offered = session.allowed_moves(None)
        if not offered:
            break
        move = rng.choice(offered)
        board = expected(session.game.apply(session.state, move)[0])
        if board == expected(session.state):
            session.submit(move, None)
            continue
        t += 10.0
        for i in range(2):
            watch.feed(BoardReading(pieces=board, markers=4, pose="locked"), at=t + i * SETTLE_S / 2)
        t0 = time.perf_counter()
        outcome = watch.feed(BoardReading(pieces=board, markers=4, pose="locked"), at=t + SETTLE_S)
        json.dumps(session.view(None), ensure_ascii=False, separators=(",", ":"))
        total = (time.perf_counter() - t0) * 1000
        search = watch.searches[-1] if outcome in ("proposal", "question", "differences") else 0.0
        out.append({"kind": move.kind, "phase": session.state.phase, "outcome": outcome, "ms": total,
                    "search_ms": search})
        proposal = watch.proposal
        pick = None if proposal is None else next(
            (i for i, c in enumerate(proposal.candidates) if move in c and len(c) == 1), None)
        if pick is not None:
            watch.confirm(proposal.id, pick if len(proposal.candidates) > 1 else None, None)
        else:
            session.submit(move, None)
    return out


def run_table(games: int, moves: int) -> dict:
    rows = []
    for g in range(games):
        got = play_table(100 + g, moves)
        rows += got
        print(f"game {g}: {len(got)} board changes, median {figures([r['ms'] for r in got]).get('median_ms')} ms",
              file=sys.stderr)
    kinds = sorted({r["kind"] for r in rows})
    by_kind = {k: {**figures([r["ms"] for r in rows if r["kind"] == k]),
                   **{o: sum(1 for r in rows if r["kind"] == k and r["outcome"] == o)
                      for o in ("proposal", "question", "differences")}} for k in kinds}
    return {"mode": "table", "games": games, "all": figures([r["ms"] for r in rows]),
            "search": figures([r["search_ms"] for r in rows]), "by_kind": by_kind,
            "outcomes": {o: sum(1 for r in rows if r["outcome"] == o) for o in ("proposal", "question", "differences")}}


def run_device(changes: int, seed: int = 7, real_camera: bool = False, gate: bool = True, still_s: float = 0.0) -> dict:
    from companion.sim.board_source import open_board_camera
    from companion.table.board_device import BoardDevice
    from companion.table.frame_gate import FrameGate

    class Timed(BoardDevice):
        """The board camera's thread, its CPU on frames counted (the reader and the gate)."""
        cpu = 0.0

        def _read(self, image, at):
            began = time.thread_time()
            try:
                return super()._read(image, at)
            finally:
                self.cpu += time.thread_time() - began

    def camera(spec):
        source = open_board_camera(spec)
        source.fresh_noise = real_camera
        return source

    data = Path(tempfile.mkdtemp(prefix="board-proposal-"))
    tables = Tables(EventStore(data), automation=SIM_TABLE)
    session = tables.create("tokyo_metro", NAMES, seed=seed)
    rng = random.Random(seed)
    device = Timed(tables, "sim", open_camera=camera, data_dir=data, follow_s=0.2)
    if not gate:
        device.gate = FrameGate(levels=-1)      # every frame read
    tables.board_camera = device
    watch = session.board_watch
    device.start()
    rows = []

    def wait(done, seconds=60.0):
        end = time.monotonic() + seconds
        while time.monotonic() < end and not done():
            time.sleep(0.01)
        return done()

    still = None
    try:
        wait(lambda: watch.matches is True)
        if still_s > 0:
            before, cpu, began = device.status(), device.cpu, time.monotonic()
            time.sleep(still_s)
            after, took = device.status(), time.monotonic() - began
            frames = sum(after[k] - before[k] for k in ("read", "repeated", "unchanged"))
            still = {"seconds": round(took, 1), "frames": frames,
                     **{k: after[k] - before[k] for k in ("read", "repeated", "unchanged")},
                     "cpu_s_a_minute": round((device.cpu - cpu) * 60 / took, 2)}
            print(json.dumps({"still": still}), file=sys.stderr)
        while len(rows) < changes and not session.over:
            if session.state.phase == "bid" and bid(session, rng):
                continue
            offered = session.allowed_moves(None)
            move = rng.choice(offered)
            board = expected(session.game.apply(session.state, move)[0])
            if board == expected(session.state):
                session.submit(move, None)
                continue
            if not wait(lambda: watch.matches is True, 20.0):   # the simulated players copied the last move
                print("the board does not match the game", watch.to_json(), file=sys.stderr)
                break
            device.sim_set(board)
            if not wait(lambda: watch.proposal is not None or watch.cause == "board"):
                print("no answer in time", file=sys.stderr)
                break
            seen = time.monotonic()
            proposal = watch.proposal
            if proposal is None:
                print(f"{move.kind}: not explained ({watch.to_json()['differences']})", file=sys.stderr)
                session.submit(move, None)
                wait(lambda: watch.matches is True, 20.0)
                continue
            row = {"kind": move.kind, "candidates": len(proposal.candidates),
                   "to_proposal_ms": (proposal.proposed_at - proposal.settled_at) * 1000,
                   "to_view_ms": (seen - proposal.settled_at) * 1000,
                   "read_ms": device.last.ms if device.last else None}
            rows.append(row)
            print(json.dumps({k: round(v, 1) if isinstance(v, float) else v for k, v in row.items()}),
                  file=sys.stderr)
            pick = next((i for i, c in enumerate(proposal.candidates) if move in c and len(c) == 1), None)
            if pick is None:
                session.submit(move, None)   # a to-do: the simulated players copy it
            else:
                watch.confirm(proposal.id, pick if len(proposal.candidates) > 1 else None, None)
            wait(lambda: watch.matches is True, 20.0)
    finally:
        device.stop()
    return {"mode": "device", "real_camera": real_camera, "gate": gate, "still": still,
            "changes": len(rows), "to_proposal": figures([r["to_proposal_ms"] for r in rows]),
            "to_view": figures([r["to_view_ms"] for r in rows]),
            "read_ms": figures([r["read_ms"] for r in rows if r["read_ms"] is not None])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="seeded four-seat games (table mode)")
    parser.add_argument("--moves", type=int, default=400, help="board changes per game at most")
    parser.add_argument("--device", type=int, default=0, metavar="N",
                        help="measure N changes on the simulated board through the board camera's thread instead")
    parser.add_argument("--real-camera", action="store_true", help="(--device) every frame noisy anew, as a real camera's")
    parser.add_argument("--still", type=float, default=0.0, metavar="S",
                        help="(--device) first S seconds of a still board: the camera thread's CPU on its frames")
    parser.add_argument("--no-gate", action="store_true", help="(--device) read every frame (no frame gate)")
    args = parser.parse_args()
    result = run_device(args.device, real_camera=args.real_camera, gate=not args.no_gate, still_s=args.still) \
        if args.device else run_table(args.games, args.moves)
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
