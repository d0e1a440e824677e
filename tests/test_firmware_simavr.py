"""The real firmware ELF, running in simavr, talking to the real SensorLink.

firmware/build/simbridge loads firmware/build/avr/tower_sensors.elf into a
simulated ATmega328P, puts its UART on a pty and drives the beam pins on exact
simulated microseconds (see firmware/host/simbridge.c). Simulated time runs in
step with the wall clock, so the 1 Hz heartbeat and the host's timeouts are
the real ones. These tests must never skip: a missing toolchain is a failure
that names `make firmware-deps`.
"""
from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from companion.sensors.link import SensorLink

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

    def pattern(self, *pulses: tuple[str, float, float]) -> None:
        """Block beams at (beam, at_ms, width_ms) from one base time, in simulated microseconds,
        so the time the commands take to arrive does not stretch the gaps between pulses."""
        base = self.cmd("time") + 200_000
        for beam, at_ms, width_ms in pulses:
            self.cmd(f"pulse_at {beam} {base + round(at_ms * 1000)} {round(width_ms * 1000)}")

    def pulse(self, beam: str, after_ms: float, width_ms: float) -> None:
        self.pattern((beam, after_ms, width_ms))

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=3)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.log.close()


class Store:
    def __init__(self, fail_first: int = 0):
        self.events, self.fail_left = [], fail_first

    def __call__(self, obs):
        if self.fail_left:
            self.fail_left -= 1
            raise RuntimeError("store not ready (a test)")
        self.events.append(obs)


def wait_for(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


@pytest.fixture
def rig(tmp_path):
    """A bridge, a store and a connected link; extra bridge flags via indirect params."""
    made = {}

    def make(*bridge_args: str, fail_first: int = 0):
        bridge = Bridge(tmp_path, *bridge_args)
        store = Store(fail_first)
        link = SensorLink(bridge.pty, store, backoff=(0.05, 0.2))
        made.update(bridge=bridge, link=link)
        link.start()
        wait_for(lambda: link.status()["state"] == "connected", 5, "the HELLO handshake")
        return bridge, store, link

    yield make
    if "link" in made:
        made["link"].stop()
    if "bridge" in made:
        made["bridge"].close()


def test_boot_hello_handshake_and_heartbeat(rig):
    bridge, store, link = rig()
    status = link.status()
    assert (status["firmware"], status["protocol"], status["colour_sensor"]) == ("1.0.0", 1, False)
    assert len(status["boot_id"]) == 8
    wait_for(lambda: link.status()["last_heartbeat"] is not None, 2.5, "a heartbeat")
    status = link.status()
    assert status["beams"] == {"in": False, "out": False} and status["totals"] == {"in": 0, "out": 0}
    assert status["link"]["bad_frames"] == {} and status["link"]["frames_missed"] == 0


def test_single_drops_two_drinks_close_together_and_a_glitch(rig):
    bridge, store, link = rig()
    bridge.pattern(
        *[("in", 50 + 120 * i, 20) for i in range(5)],  # five single drinks through the slot, 20 ms each
        ("in", 700, 20), ("in", 721, 20),  # two drinks touching: the 1 ms gap is below the glitch filter
        ("in", 900, 20), ("in", 930, 20),  # two drinks 10 ms apart: two passes
        ("out", 1000, 0.8),  # a flicker of the receiver: not a pass
        ("out", 1100, 25),
        ("out", 1200, 3),  # a fast, short pass: just over the filter, still a pass
        ("out", 1206, 0.5))  # ... and a flicker soon after it
    wait_for(lambda: len(store.events) == 10, 4, "ten passes")
    time.sleep(0.3)
    assert len(store.events) == 10
    ins = [o for o in store.events if o.detail["beam"] == "in"]
    widths = [o.detail["width_us"] for o in ins]
    assert all(abs(w - 20_000) <= 100 for w in widths[:5] + widths[6:]), widths
    double = ins[5]
    assert double.detail["double"] and double.passes_in == 2 and double.confidence < 0.8
    assert abs(double.detail["width_us"] - 41_000) <= 100 and double.detail["median_us"] == widths[0]
    assert not any(o.detail["double"] for o in ins[:5] + ins[6:])
    t = [o.detail["t_ms"] for o in ins]
    assert t[1] - t[0] == pytest.approx(120, abs=2) and t[7] - t[6] == pytest.approx(30, abs=2)
    out = [o.detail["width_us"] for o in store.events if o.detail["beam"] == "out"]
    assert abs(out[0] - 25_000) <= 100 and abs(out[1] - 3_000) <= 100, out
    assert [o.detail["event_id"] for o in store.events] == list(range(1, 11))
    wait_for(lambda: link.status()["totals"] == {"in": 9, "out": 2}, 2, "the totals in a heartbeat")
    assert sum(o.passes_in for o in store.events) == 9


def test_a_beam_held_blocked_is_counted_once_and_shown_blocked(rig):
    bridge, store, link = rig()
    bridge.cmd("block out")
    wait_for(lambda: store.events, 1.5, "the held pass")
    (held,) = store.events
    assert held.detail["held"] and held.passes_out == 1 and 500_000 <= held.detail["width_us"] < 520_000
    wait_for(lambda: link.status()["beams"]["out"], 2, "a heartbeat showing the blocked beam")
    bridge.cmd("clear out")
    wait_for(lambda: not link.status()["beams"]["out"], 2, "a heartbeat showing it clear")
    assert len(store.events) == 1 and link.status()["totals"] == {"in": 0, "out": 1}


def test_the_colour_sensor_reads_a_drink_resting_in_the_exit_beam(rig):
    bridge, store, link = rig("--tcs34725")
    assert link.status()["colour_sensor"] is True
    bridge.cmd("colour 812 240 233 1301")
    bridge.pattern(("out", 20, 120),  # rests 120 ms: read after 60 ms
                   ("out", 400, 20))  # falls straight through: no reading
    wait_for(lambda: len(store.events) == 2, 3, "two passes")
    rested, fell = store.events
    assert rested.detail["colour"] == {"r": 812, "g": 240, "b": 233, "c": 1301}
    assert fell.detail["colour"] is None


def test_events_wait_in_the_ring_until_acked_across_a_host_restart(rig):
    bridge, store, link = rig(fail_first=1)
    bridge.pulse("in", 20, 20)
    wait_for(lambda: store.events, 2, "the event re-sent after a failed commit")
    assert store.events[0].detail["resent"] and link.status()["link"]["callback_errors"] == 1
    link.stop()  # the host goes away; the board keeps counting
    bridge.pattern(*[("out", 20 + 50 * i, 20) for i in range(3)])
    time.sleep(0.5)
    second = Store()
    again = SensorLink(bridge.pty, second, backoff=(0.05, 0.2))
    try:
        again.start()
        wait_for(lambda: len(second.events) == 3, 4, "the three events kept in the ring")
        assert again.status()["boot_id"] == link.status()["boot_id"]
        assert [o.detail["event_id"] for o in second.events] == [2, 3, 4]
        # the first host took event 1: once the board holds nothing, the new host stops asking
        wait_for(lambda: again.status()["last_heartbeat"] is not None, 2.5, "a heartbeat")
        asked = again.status()["link"]["state_requests"]
        time.sleep(1.2)
        assert again.status()["link"]["state_requests"] == asked
    finally:
        again.stop()


def test_a_frozen_board_is_disconnected_within_three_heartbeats_and_comes_back(rig):
    bridge, store, link = rig()
    wait_for(lambda: link.status()["last_heartbeat"] is not None, 2.5, "a heartbeat")
    wait_for(lambda: link.status()["last_heartbeat"] < 0.05, 1.5, "a fresh heartbeat")
    bridge.cmd("pause")
    frozen = time.monotonic()
    wait_for(lambda: link.status()["state"] == "disconnected", 4.5, "the link to notice")
    assert time.monotonic() - frozen <= 3.5
    bridge.cmd("resume")
    bridge.pulse("in", 20, 20)
    wait_for(lambda: link.status()["state"] == "connected" and store.events, 3, "the board back, with its drop")
