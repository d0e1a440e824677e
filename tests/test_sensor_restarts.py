"""The host's books equal the sensor board's after any number of host restarts (issue 25,
defect 3): passes the board had to drop from its full ring are counted once, not again by
each companion that meets the board. The real app (`create_app`, as `companion serve` builds
it) with its real link, over one real SQLite file, against a simulated board on a pty; the
host side is started and stopped again and again while the board keeps counting."""
from __future__ import annotations

import time
from contextlib import contextmanager

from api_support import table_client

from companion.sensors.simboard import SimBoard
from companion.sim.table import SIM_TABLE  # the simulated table, wired in as `companion serve` does
from companion.table.session import TableSession
from companion.table.store import EventStore

HEARTBEAT_S = 0.2


def wait_for(condition, timeout: float, what) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what() if callable(what) else what}")


@contextmanager
def host(data, board):
    """One run of the companion over the data folder, its sensor link on the board's port."""
    with EventStore(data) as store, table_client(store, serial=board.path) as client:
        yield client


def books(client, gid, board):
    """(the table's beam count, the link's copy of the board's totals, the board's totals)."""
    view = client.get(f"/api/games/{gid}/view").json()
    sensors = client.get("/api/devices").json()["sensors"]
    return tuple(view["beams"]["since_drop"]), (sensors["totals"]["in"], sensors["totals"]["out"]), \
        tuple(board.model.totals)


def balanced(client, gid, board, since: float) -> None:
    """Wait until the host has heard the board out (two heartbeats after ``since``, each
    heartbeat re-states the board's totals and dropped counts) and its books match."""
    def heard_twice():
        s = client.get("/api/devices").json()["sensors"]
        age = s["last_heartbeat"]
        return s["state"] == "connected" and age is not None and time.monotonic() - age > since + HEARTBEAT_S

    def settled():
        counted, link, board_totals = books(client, gid, board)
        return not board.model.ring and counted == link == board_totals

    wait_for(heard_twice, 8, "two heartbeats from the board")
    wait_for(settled, 8, lambda: "the books to match: table, link, board = %s" % (books(client, gid, board),))


def drop(board, n: int, thrown: list[int], start: int = 0) -> None:
    """``n`` drinks through the beams (every third one out of the chute), counted in ``thrown``."""
    for i in range(start, start + n):
        beam = 1 if i % 3 == 2 else 0
        board.drop(("in", "out")[beam], 20)
        thrown[beam] += 1


def test_dropped_passes_are_counted_once_over_many_host_restarts(tmp_path):
    board = SimBoard(link=tmp_path / "tower", ring_size=4, heartbeat_s=HEARTBEAT_S)
    board.start()
    try:
        data = tmp_path / "data"
        with EventStore(data) as store:  # a game on a real table, waiting: it takes the beam counts
            gid = TableSession.create(store, "pocari_bet", ["Aki", "Ben", "Chie"], simulated=False, seed=1,
                                      automation=SIM_TABLE).id
        thrown = [0, 0]
        drop(board, 10, thrown)  # nobody listens: the ring keeps 4 passes, 6 are only counted
        assert board.model.dropped != [0, 0]
        for restart in range(4):
            with host(data, board) as client:
                balanced(client, gid, board, time.monotonic())
                drop(board, 3, thrown, restart)
                balanced(client, gid, board, time.monotonic())
            drop(board, 6, thrown, restart)  # the host is down: the ring fills, the board drops more
        with host(data, board) as client:
            balanced(client, gid, board, time.monotonic())
            counted, _, totals = books(client, gid, board)
        assert counted == totals == tuple(thrown)
        assert sum(board.model.dropped) > 6  # the board dropped more while the host was away
    finally:
        board.stop()
