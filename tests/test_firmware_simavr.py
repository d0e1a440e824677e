"""The real firmware ELF, running in simavr, talking to the real SensorLink.

firmware/build/simbridge loads firmware/build/avr/tower_sensors.elf into a
simulated ATmega328P, puts its UART on a pty and drives the beam pins on exact
simulated microseconds (see firmware/host/simbridge.c). Simulated time runs in
step with the wall clock, so the 1 Hz heartbeat and the host's timeouts are
the real ones. These tests must never skip: a missing toolchain is a failure
that names `make firmware-deps`.

Behind the link stands the real table, wired as `create_app` wires it: the
`Devices` that run the link, `Tables.route` handing each observation to the game
in play (a TableSession over the SQLite EventStore) and the store's books of
each board boot answering the link's "committed before?". What a test reads back
is what the store holds.

Nothing here waits for a length of time: a test that must show that nothing more
arrives waits for a heartbeat the board sent after the events, saying that it holds
nothing unacknowledged (so it will re-send nothing, and the line keeps order).
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from companion.observation import Observation
from companion.sensors.link import HEARTBEAT_S, SensorLink
from companion.sim.table import SIM_TABLE  # the simulated table, wired in as `companion serve` does
from companion.table.tables import Tables
from companion.table.devices import Devices
from companion.table.session import TableSession
from companion.table.store import EventStore
from waiting import wait_for

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
BRIDGE = FIRMWARE / "build" / "simbridge"
ELF = FIRMWARE / "build" / "avr" / "tower_sensors.elf"


@pytest.fixture(scope="module", autouse=True)
def built():
    result = subprocess.run(["make", "-C", str(FIRMWARE)], capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail(f"`make -C firmware` failed (missing packages? run `make firmware-deps` as root):\n"
                    f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    assert ELF.exists() and BRIDGE.exists()


class Bridge:
    """One simulated board: the ELF in simavr, its UART on a pty, its pins on our commands."""

    def __init__(self, tmp_path: Path, *args: str):
        self.log = (tmp_path / "simbridge.stderr").open("w")
        self.proc = subprocess.Popen([str(BRIDGE), *args, str(ELF)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.log, text=True, bufsize=1)
        first = self.proc.stdout.readline().split()
        assert first[:1] == ["pty"], f"simbridge said {first!r}"
        self.pty = first[1]

    def cmd(self, line: str) -> int:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().split()
        assert answer and answer[0] in ("ok", "time"), f"{line!r} -> {answer!r}"
        return int(answer[1])

    def pattern(self, *pulses: tuple[str, float, float]) -> int:
        """Block beams at (beam, at_ms, width_ms) from one base time, in simulated microseconds;
        the chip is paused while they are scheduled, so however long the commands take to arrive
        (a busy machine) neither stretches the gaps nor lets a start time pass. Returns the
        simulated time at which the last pulse ends."""
        base = self.cmd("pause") + 20_000
        try:
            ends = [self.cmd(f"pulse_at {beam} {base + round(at_ms * 1000)} {round(width_ms * 1000)}")
                    + round(width_ms * 1000) for beam, at_ms, width_ms in pulses]
        finally:
            self.cmd("resume")
        return max(ends)

    def pulse(self, beam: str, after_ms: float, width_ms: float) -> int:
        return self.pattern((beam, after_ms, width_ms))

    def passed(self, sim_us: int) -> bool:
        """Whether the simulated clock has passed ``sim_us``."""
        return self.cmd("time") > sim_us

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.log.close()


class Table:
    """A companion's table over the store in ``data``: one game in play (POCARI BET, three people,
    so nothing ends it), observations routed by the real `Tables`, the board run by `Devices`."""

    def __init__(self, data: Path, fail_first: int = 0):
        self.store = EventStore(data)
        if not self.store.games(status="open"):
            TableSession.create(self.store, "pocari_bet", ["Aki", "Ben", "Chie"], seed=1, automation=SIM_TABLE)
        self.tables = Tables(self.store, automation=SIM_TABLE)  # a restarted companion resumes the open game
        self.game_id = self.tables.active
        self.fail_left = fail_first
        self.devices: Devices | None = None

    def route(self, obs: Observation) -> None:
        if self.fail_left:  # the commit fails (a full disk): the link must not acknowledge
            self.fail_left -= 1
            raise OSError("disk full (a test)")
        self.tables.route(obs)

    def connect(self, port: str) -> SensorLink:
        self.devices = Devices(self.route, serial=port, store=self.store)
        self.devices.start()
        return self.devices.link

    def close(self) -> None:
        if self.devices is not None:
            self.devices.stop()
        self.store.close()

    @property
    def events(self) -> list[Observation]:
        """The board's observations as the store holds them, in order."""
        return [Observation.model_validate(r["observation"]) for r in self.store.records(self.game_id)
                if r["type"] == "observation" and r["observation"]["kind"] == "beams"]


def settled(link: SensorLink, what: str) -> None:
    """Barrier, once the expected events are in the store: a heartbeat handled from now on was sent
    after them; one that says the board holds nothing unacknowledged means nothing will be re-sent,
    and every frame sent before it was handled (the line keeps order). After this nothing more
    arrives until a beam is broken again."""
    before = link.status()["link"]["heartbeats"]
    wait_for(lambda: (s := link.status())["link"]["heartbeats"] > before and s["unacked"] == 0,
             f"a heartbeat saying the board holds nothing unacknowledged ({what})")


@pytest.fixture
def rig(tmp_path):
    """A bridge, the table with its store, and a connected link; extra bridge flags as arguments."""
    made = {}

    def make(*bridge_args: str, fail_first: int = 0):
        bridge = Bridge(tmp_path, *bridge_args)
        made["bridge"] = bridge
        table = made["table"] = Table(tmp_path / "data", fail_first)
        link = table.connect(bridge.pty)
        wait_for(lambda: link.status()["state"] == "connected", "the HELLO handshake")
        return bridge, table, link

    yield make
    if "table" in made:
        made["table"].close()
    if "bridge" in made:
        made["bridge"].close()


def test_boot_hello_handshake_and_heartbeat(rig):
    bridge, table, link = rig()
    status = link.status()
    assert (status["firmware"], status["protocol"], status["colour_sensor"]) == ("1.0.0", 1, False)
    assert len(status["boot_id"]) == 8
    wait_for(lambda: link.status()["last_heartbeat"] is not None, "a heartbeat")
    status = link.status()
    assert status["unacked"] == 0 and status["link"]["heartbeats"] >= 1
    assert status["beams"] == {"in": False, "out": False} and status["totals"] == {"in": 0, "out": 0}
    assert status["link"]["bad_frames"] == {} and status["link"]["frames_missed"] == 0


def test_single_drops_two_drinks_close_together_and_a_glitch(rig):
    bridge, table, link = rig()
    bridge.pattern(
        *[("in", 50 + 120 * i, 20) for i in range(5)],  # five single drinks through the slot, 20 ms each
        ("in", 700, 20), ("in", 721, 20),  # two drinks touching: the 1 ms gap is below the glitch filter
        ("in", 900, 20), ("in", 930, 20),  # two drinks 10 ms apart: two passes
        ("out", 1000, 0.8),  # a flicker of the receiver: not a pass
        ("out", 1100, 25),
        ("out", 1200, 3),  # a fast, short pass: just over the filter, still a pass
        ("out", 1206, 0.5))  # ... and a flicker soon after it
    wait_for(lambda: len(table.events) >= 10, "ten passes")
    settled(link, "ten passes")
    events = table.events
    assert len(events) == 10, [o.detail for o in events]
    ins = [o for o in events if o.detail["beam"] == "in"]
    widths = [o.detail["width_us"] for o in ins]
    assert all(abs(w - 20_000) <= 100 for w in widths[:5] + widths[6:]), widths
    double = ins[5]
    assert double.detail["double"] and double.passes_in == 2 and double.confidence < 0.8
    # the firmware's running median of the five singles before it (the bridge's timing wobbles by µs)
    assert abs(double.detail["width_us"] - 41_000) <= 100 and double.detail["median_us"] == sorted(widths[:5])[2]
    assert not any(o.detail["double"] for o in ins[:5] + ins[6:])
    t = [o.detail["t_ms"] for o in ins]
    assert t[1] - t[0] == pytest.approx(120, abs=2) and t[7] - t[6] == pytest.approx(30, abs=2)
    out = [o.detail["width_us"] for o in events if o.detail["beam"] == "out"]
    assert abs(out[0] - 25_000) <= 100 and abs(out[1] - 3_000) <= 100, out
    assert [o.detail["event_id"] for o in events] == list(range(1, 11))
    assert link.status()["totals"] == {"in": 9, "out": 2}  # the barrier's heartbeat said so
    assert sum(o.passes_in for o in events) == 9
    assert table.tables.sessions[table.game_id].folded.beams == (9, 2)  # and the game counted them


def test_a_beam_held_blocked_is_counted_once_and_shown_blocked(rig):
    bridge, table, link = rig()
    bridge.cmd("block out")
    wait_for(lambda: table.events, "the held pass")
    (held,) = table.events
    assert held.detail["held"] and held.passes_out == 1 and 500_000 <= held.detail["width_us"] < 520_000
    wait_for(lambda: link.status()["beams"]["out"], "a heartbeat showing the blocked beam")
    bridge.cmd("clear out")
    wait_for(lambda: not link.status()["beams"]["out"], "a heartbeat showing it clear")
    settled(link, "the beam cleared")  # clearing a held beam is not a second pass
    assert len(table.events) == 1 and link.status()["totals"] == {"in": 0, "out": 1}


def test_the_colour_sensor_reads_a_drink_resting_in_the_exit_beam(rig):
    bridge, table, link = rig("--tcs34725")
    assert link.status()["colour_sensor"] is True
    bridge.cmd("colour 812 240 233 1301")
    bridge.pattern(("out", 20, 120),  # rests 120 ms: read after 60 ms
                   ("out", 400, 20))  # falls straight through: no reading
    wait_for(lambda: len(table.events) >= 2, "two passes")
    settled(link, "two passes")
    rested, fell = table.events
    assert rested.detail["colour"] == {"r": 812, "g": 240, "b": 233, "c": 1301}
    assert fell.detail["colour"] is None


def test_events_wait_in_the_ring_until_acked_across_a_host_restart(rig, tmp_path):
    bridge, table, link = rig(fail_first=1)
    bridge.pulse("in", 20, 20)
    wait_for(lambda: table.events, "the event re-sent after a failed commit")
    assert table.events[0].detail["resent"] and link.status()["link"]["callback_errors"] == 1
    settled(link, "event 1 acknowledged")  # not re-sent: the new host must book it as taken before
    boot_id = link.status()["boot_id"]
    table.close()  # the companion goes away; the board keeps counting
    end = bridge.pattern(*[("out", 20 + 50 * i, 20) for i in range(3)])
    wait_for(lambda: bridge.passed(end + 20_000), "the simulated clock to pass the three pulses")
    second = Table(tmp_path / "data")  # the companion restarts on the same store
    try:
        again = second.connect(bridge.pty)
        wait_for(lambda: len(second.events) >= 4, "the three events kept in the ring")
        settled(again, "the three events")
        assert again.status()["boot_id"] == boot_id
        assert [o.detail["event_id"] for o in second.events] == [1, 2, 3, 4]  # each stored once
        assert again.status()["link"]["delivered"] == 3
        # the first host took event 1: once the board holds nothing, the new host stops asking
        asked, beats = again.status()["link"]["state_requests"], again.status()["link"]["heartbeats"]
        wait_for(lambda: again.status()["link"]["heartbeats"] > beats, "one more heartbeat")
        assert again.status()["link"]["state_requests"] == asked
    finally:
        second.close()


def test_a_frozen_board_is_disconnected_within_three_heartbeats_and_comes_back(rig):
    bridge, table, link = rig()
    bridge.cmd("pause")  # the link heard the HELLO: its silence counts from there
    status = wait_for(lambda: (s := link.status())["state"] == "disconnected" and s,
                      "the link to notice the frozen board")
    # judged by the silence the link itself measured: not before three heartbeats were missed,
    # and not much later (a busy machine may run the link's check a little late, never seconds)
    silence = float(re.search(r"no heartbeat for ([0-9.]+) s", status["error"]).group(1))
    assert link.heartbeat_timeout <= 3 * HEARTBEAT_S + 0.5, link.heartbeat_timeout
    assert 3 * HEARTBEAT_S <= silence <= 3 * HEARTBEAT_S + 2.5, status
    bridge.cmd("resume")
    bridge.pulse("in", 20, 20)
    wait_for(lambda: link.status()["state"] == "connected" and table.events, "the board back, with its drop")
