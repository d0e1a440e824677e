"""The link against boards in software over real ptys (pyserial on one end, a board
speaking the real protocol on the other): faults on the wire, unplugs, silence,
strangers, resets, a full ring, a failing store. Nothing here is mocked but the
board itself, and the real firmware gets the same treatment in
test_firmware_simavr.py."""
from __future__ import annotations

import random
import re
import threading
import time
from types import SimpleNamespace

import pytest

from companion.observation import Observation
from companion.sensors import codec
from companion.sensors.board import BoardModel
from companion.sensors.codec import BEAM_IN, BEAM_OUT
from companion.sensors.fakeboard import FakeBoard, Faults
from companion.sensors.link import HEARTBEAT_S, BoardBooks, SensorLink
from companion.sensors.ports import PortSpecError, discover, parse_spec
from companion.sensors.simboard import SimBoard
from waiting import wait_for


def read_since(link: SensorLink, seq: int) -> bool:
    """Whether the link has handled the board's frame ``seq`` or a later one."""
    last = link.status()["link"]["last_seq"]
    return last is not None and (last - seq) & 0xFFFF < 0x8000


def caught_up(board: SimBoard, link: SensorLink, what: str) -> None:
    """Barrier: the link has handled everything the board sent so far. The board sends a
    heartbeat now and the link reads it; the serial line keeps order, so every frame sent
    before it (late duplicates included) was handled first."""
    mark = board.heartbeat_now()
    wait_for(lambda: read_since(link, mark), f"the link to read the board's heartbeat #{mark} ({what})")


def settled(board: SimBoard, link: SensorLink, what: str) -> None:
    """Barrier: the board holds nothing unacknowledged (so it will re-send nothing) and the
    link has handled everything the board sent: after this, nothing more arrives."""
    wait_for(lambda: not board.model.ring, f"the board to hear every ACK ({what})")
    caught_up(board, link, what)


class Collector:
    """Stands in for the table's store, on purpose: these tests are about the link alone. It
    keeps every delivery, so a second copy shows up here (the real table would also hide it
    behind ``committed``), and it can refuse commits. The real table and store stand
    behind the link in test_firmware_simavr.py."""

    def __init__(self, fail_first: int = 0):
        self.got: dict[tuple, Observation] = {}
        self.order: list[Observation] = []
        self.duplicates: list[tuple] = []
        self.fail_left = fail_first
        self.lock = threading.Lock()

    def __call__(self, obs: Observation) -> None:
        with self.lock:
            if self.fail_left > 0:
                self.fail_left -= 1
                raise OSError("disk full (a test)")
            key = (obs.detail["boot_id"], obs.detail["event_id"])
            if key in self.got and key[1] is not None:
                self.duplicates.append(key)
            self.got[key] = obs
            self.order.append(obs)

    @property
    def passes(self) -> tuple[int, int]:
        with self.lock:
            return sum(o.passes_in for o in self.order), sum(o.passes_out for o in self.order)


@pytest.fixture
def boards():
    made = []
    yield made
    for b in made:
        b.stop()


@pytest.fixture
def links():
    made = []
    yield made
    for link in made:
        link.stop()


def start_link(links, port, on_obs, **kw) -> SensorLink:
    kw.setdefault("backoff", (0.05, 0.2))
    link = SensorLink(port, on_obs, **kw)
    links.append(link)
    link.start()
    return link


def start_board(boards, tmp_path, cls=SimBoard, **kw) -> SimBoard:
    board = cls(link=tmp_path / f"board{len(boards)}", **kw)
    boards.append(board)
    board.start()
    return board


# --- the main proof -------------------------------------------------------------------------

def test_ten_thousand_events_over_a_bad_cable_arrive_exactly_once_and_intact(tmp_path, boards, links):
    faults = Faults(corrupt=0.03, drop=0.03, duplicate=0.03, reorder=0.03, corrupt_rx=0.03, drop_rx=0.03, seed=11)
    board = start_board(boards, tmp_path, FakeBoard, faults=faults, resend_s=0.05)
    store = Collector()
    link = start_link(links, board.path, store)
    wait_for(lambda: link.status()["state"] == "connected", "the handshake")

    rng = random.Random(5)
    sent: dict[int, codec.Event] = {}
    unplugs = [1500, 3500, 6000, 8500]
    while len(sent) < 10_000:
        if unplugs and len(sent) >= unplugs[0]:
            unplugs.pop(0)
            board.unplug()
            time.sleep(0.05)
            board.plug()
        with board.lock:
            if board.model.ring_free:
                width = rng.choice([rng.randint(15_000, 25_000)] * 19 + [rng.randint(55_000, 70_000)])
                event = board.model.add_pass(rng.choice([BEAM_IN, BEAM_OUT]), width,
                                             colour=(1, 2, 3, 4) if rng.random() < 0.1 else None)
                sent[event.event_id] = event
                continue
        time.sleep(0.0005)
    wait_for(lambda: len(store.got) >= 10_000, "every event to arrive", timeout=300)
    # late duplicates (re-sends, doubled or held-back frames), if the link let any through,
    # have arrived once the board holds nothing and the link has read past all it sent
    settled(board, link, "the last re-sends")

    assert store.duplicates == []
    assert len(store.got) == 10_000
    boot = f"{board.model.boot_id:08x}"
    for event_id, event in sent.items():
        obs = store.got[(boot, event_id)]
        d = obs.detail
        assert (d["beam"], d["width_us"], d["t_ms"], d["totals"]) == (
            codec.BEAM_NAMES[event.beam], event.width_us, event.t_ms,
            {"in": event.total_in, "out": event.total_out}), f"event {event_id} changed on the way"
        assert obs.passes_in + obs.passes_out == event.count
        assert d["double"] == bool(event.flags & codec.F_DOUBLE)
    assert store.passes == tuple(board.model.totals)
    # the faults really happened, and the link saw them
    assert all(n > 0 for n in board.counts.values()), board.counts
    stats = link.status()["link"]
    assert stats["bad_frames"].get("crc", 0) > 0 and stats["duplicates"] > 0, stats
    assert stats["reconnects"] >= 4 and stats["state_requests"] > 0 and stats["frames_missed"] > 0, stats


# --- silence, strangers, resets ----------------------------------------------------------------

def test_a_board_that_stops_talking_is_disconnected_within_three_heartbeats(tmp_path, boards, links):
    board = start_board(boards, tmp_path, FakeBoard)
    # reopen_after far away: coming back must not depend on how soon this test unmutes the board
    link = start_link(links, board.path, Collector(), reopen_after=600)
    wait_for(lambda: link.status()["last_heartbeat"] is not None, "a first heartbeat")
    board.muted = True
    status = wait_for(lambda: (s := link.status())["state"] == "disconnected" and s,
                      "the link to notice the silence")
    assert "stopped talking" in status["error"], status
    # judged by the silence the link itself measured: not before three heartbeats were missed,
    # and not much later (a busy machine may run the link's check a little late, never seconds)
    silence = float(re.search(r"no heartbeat for ([0-9.]+) s", status["error"]).group(1))
    assert link.heartbeat_timeout <= 3 * HEARTBEAT_S + 0.5, link.heartbeat_timeout
    assert 3 * HEARTBEAT_S <= silence <= 3 * HEARTBEAT_S + 2.5, status
    assert status["last_heartbeat"] >= 3 * HEARTBEAT_S, status
    assert status["firmware"] == "1.0.0"  # still says which board went quiet
    board.muted = False
    wait_for(lambda: link.status()["state"] == "connected", "the link to come back")
    assert link.status()["link"]["reconnects"] == 0  # the port stayed open: an Uno is not reset


def test_an_unknown_protocol_version_is_refused_with_a_clear_reason(tmp_path, boards, links):
    board = start_board(boards, tmp_path, FakeBoard, version=2)
    records = []
    store = Collector()
    link = start_link(links, board.path, store, commit=records.append)
    wait_for(lambda: link.status()["state"] == "refused", "the refusal")
    board.drop("in")
    caught_up(board, link, "after the drop")
    status = link.status()
    assert status["state"] == "refused"
    assert "protocol version 2" in status["error"] and "speaks version 1" in status["error"]
    assert store.order == [] and board.model.ring  # nothing taken, nothing acknowledged
    assert any(r["what"] == "refused" for r in records)
    assert link._thread.is_alive()


def test_the_same_version_with_another_message_layout_is_refused(tmp_path, boards, links):
    board = start_board(boards, tmp_path, FakeBoard, schema=0xDEADBEEF)
    link = start_link(links, board.path, Collector())
    wait_for(lambda: link.status()["state"] == "refused", "the refusal")
    assert "different message layout" in link.status()["error"]


def test_a_failing_store_loses_nothing_the_event_comes_again(tmp_path, boards, links):
    board = start_board(boards, tmp_path, resend_s=0.05)
    store = Collector(fail_first=3)
    link = start_link(links, board.path, store)
    wait_for(lambda: link.status()["state"] == "connected", "the handshake")
    board.drop("out", 30)
    wait_for(lambda: store.order, "the event after three failed commits")
    settled(board, link, "the ACK")
    assert len(store.order) == 1 and store.order[0].detail["resent"]
    assert link.status()["link"]["callback_errors"] == 3


def test_a_store_that_already_has_an_event_gets_no_second_copy(tmp_path, boards, links):
    """A companion that committed event 1 and died before its ACK: the store says so."""
    board = start_board(boards, tmp_path)
    store = Collector()
    asked = []

    def committed(boot_id: str) -> BoardBooks:
        asked.append(boot_id)
        return BoardBooks(event_ids=frozenset({1}))

    board.drop("in")
    board.drop("in")
    link = start_link(links, board.path, store, committed=committed)
    wait_for(lambda: store.order, "event 2 delivered")
    settled(board, link, "both events acked")
    assert len(store.order) == 1 and store.order[0].detail["event_id"] == 2
    assert asked == [f"{board.model.boot_id:08x}"]  # once per boot met, not per event


def test_a_store_that_cannot_answer_leaves_the_boards_events_waiting(tmp_path, boards, links):
    """Without the store's books a restarted host could count twice: it takes nothing until it
    has them (the board keeps saying HELLO), then takes every event once."""
    board = start_board(boards, tmp_path, heartbeat_s=0.1)
    store = Collector()
    failures = [OSError("the disk is busy (a test)")] * 3

    def committed(boot_id: str) -> BoardBooks:
        if failures:
            raise failures.pop()
        return BoardBooks()

    board.drop("in")
    link = start_link(links, board.path, store, committed=committed)
    wait_for(lambda: store.order, "the event, once the store answered")
    settled(board, link, "the event acked")
    assert len(store.order) == 1
    assert link.status()["link"]["callback_errors"] == 3 and link.status()["state"] == "connected"


def test_a_board_reset_starts_a_new_boot_and_its_event_ids_are_not_taken_for_duplicates(tmp_path, boards, links):
    board = start_board(boards, tmp_path)
    store = Collector()
    link = start_link(links, board.path, store)
    wait_for(lambda: link.status()["state"] == "connected", "the handshake")
    board.drop("in")
    board.drop("in")
    wait_for(lambda: len(store.order) >= 2, "the first boot's events")
    settled(board, link, "the first boot")
    first = link.status()["boot_id"]
    with board.lock:  # power cycle: a new model, a new boot id, ids from 1 again
        board.model = BoardModel()
        board._emit(board.model.boot_frames())
    board.drop("out")
    wait_for(lambda: len(store.order) >= 3, "the second boot's event")
    settled(board, link, "the second boot")
    assert link.status()["boot_id"] != first
    assert [o.detail["event_id"] for o in store.order] == [1, 2, 1]
    assert store.duplicates == []


def test_passes_the_full_ring_could_not_keep_arrive_as_a_lost_count(tmp_path, boards, links):
    board = start_board(boards, tmp_path, ring_size=4)
    for i in range(10):  # nobody listening yet: 4 kept, 6 only counted
        board.drop("in" if i % 3 else "out", 20)
    store = Collector()
    link = start_link(links, board.path, store)
    wait_for(lambda: len(store.order) >= 5, "4 events and the lost count")
    settled(board, link, "the ring and the lost count")
    assert store.passes == (6, 4) and len(store.order) == 5, store.order
    lost = [o for o in store.order if o.detail.get("lost_details")]
    assert len(lost) == 1 and lost[0].confidence < 0.8
    assert lost[0].passes_in + lost[0].passes_out == 6


def test_a_double_is_asked_about_and_every_field_reaches_the_observation(tmp_path, boards, links):
    board = start_board(boards, tmp_path, colour_sensor=True)
    store = Collector()
    link = start_link(links, board.path, store)
    wait_for(lambda: link.status()["state"] == "connected", "the handshake")
    assert link.status()["colour_sensor"] is True
    for _ in range(4):
        board.drop("out", 20)
    board.drop("out", 60, colour=(10, 20, 30, 70))
    wait_for(lambda: len(store.order) >= 5, "five events")
    settled(board, link, "five events")
    assert len(store.order) == 5
    last = store.order[-1]
    assert last.passes_out == 2 and last.confidence < 0.8
    assert last.detail["double"] and last.detail["median_us"] == 20000
    assert last.detail["colour"] == {"r": 10, "g": 20, "b": 30, "c": 70}
    assert last.source == "sensors" and last.kind == "beams"


def test_sim_port_starts_a_board_for_the_demo(links):
    store = Collector()
    link = start_link(links, "sim", store)
    wait_for(lambda: link.status()["state"] == "connected", "the simulated board")
    link.simboard.drop("in", 20)
    link.simboard.set_blocked("out", True)
    wait_for(lambda: store.order and link.status()["beams"]["out"], "the drop and a heartbeat")
    status = link.status()
    assert set(status) >= {"state", "port", "firmware", "protocol", "boot_id", "last_heartbeat",
                           "beams", "totals", "error"}
    assert status["totals"] == {"in": 1, "out": 0} and status["protocol"] == 1


def test_a_port_that_is_not_there_is_a_status_not_a_crash(links):
    link = start_link(links, "/dev/does-not-exist-tower", Collector())
    wait_for(lambda: link.status()["error"], "an error")
    assert link.status()["state"] == "disconnected"
    assert "cannot open /dev/does-not-exist-tower" in link.status()["error"]
    assert link._thread.is_alive()


# --- finding the board ---------------------------------------------------------------------------

def test_port_specs():
    assert parse_spec("auto").kind == "auto" and parse_spec("sim").kind == "sim"
    assert parse_spec("/dev/ttyACM0").path == "/dev/ttyACM0"
    usb = parse_spec("usb:2341:0043:95735")
    assert (usb.vid, usb.pid, usb.serial_number) == (0x2341, 0x43, "95735")
    for bad in ("usb:2341", "usb:zz:43", ""):
        with pytest.raises(PortSpecError):
            parse_spec(bad)
    with pytest.raises(PortSpecError):
        SensorLink("usb:nope", lambda obs: None)


def test_discovery_prefers_known_boards_and_stable_names(tmp_path):
    dev = tmp_path / "dev"
    dev.mkdir()
    for name in ("ttyACM0", "ttyUSB0", "ttyUSB1"):
        (dev / name).touch()
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    (by_id / "usb-Arduino__www.arduino.cc__0043_95735-if00").symlink_to(dev / "ttyACM0")
    ports = [SimpleNamespace(device=str(dev / "ttyUSB1"), vid=0x067B, pid=0x2303, serial_number=None),  # a GPS
             SimpleNamespace(device=str(dev / "ttyACM0"), vid=0x2341, pid=0x0043, serial_number="95735"),
             SimpleNamespace(device=str(dev / "ttyUSB0"), vid=0x1A86, pid=0x7523, serial_number=None),
             SimpleNamespace(device="/dev/ttyS0", vid=None, pid=None, serial_number=None)]
    found = discover(parse_spec("auto"), ports=ports, by_id=by_id)
    assert found == [str(by_id / "usb-Arduino__www.arduino.cc__0043_95735-if00"), str(dev / "ttyUSB0")]
    assert discover(parse_spec("usb:1a86:7523"), ports=ports, by_id=by_id) == [str(dev / "ttyUSB0")]
    assert discover(parse_spec("usb:2341:0043:other"), ports=ports, by_id=by_id) == []
    # no USB metadata at all: the by-id name still gives the board away
    assert discover(parse_spec("auto"), ports=[], by_id=by_id) == [
        str(by_id / "usb-Arduino__www.arduino.cc__0043_95735-if00")]
