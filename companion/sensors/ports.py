"""Finding the sensor board among the machine's serial ports.

A port spec is a device path (``/dev/ttyACM0``), ``auto`` (any known
Arduino-class USB serial chip), ``usb:VID:PID[:SERIAL]`` (hex ids, serial
number optional) or ``sim`` (the simulated board; the link handles that one).
Wherever possible the answer is the ``/dev/serial/by-id`` name, because
``ttyACM0`` may come back as ``ttyACM1`` after an unplug while the by-id name
stays the same; discovery runs again on every reconnect anyway.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

BY_ID = Path("/dev/serial/by-id")

# USB ids of the boards and USB-serial chips an Uno or Nano comes with.
KNOWN_USB = {
    (0x2341, None): "Arduino (genuine)",
    (0x2A03, None): "Arduino (arduino.org)",
    (0x1A86, 0x7523): "CH340 (Nano and Uno clones)",
    (0x0403, 0x6001): "FTDI FT232R (older Nano)",
    (0x10C4, 0xEA60): "Silicon Labs CP210x",
}


class PortSpecError(ValueError):
    """The --serial value cannot be understood."""


@dataclass(frozen=True)
class PortSpec:
    kind: str  # "path", "auto", "usb", "sim"
    path: str | None = None
    vid: int | None = None
    pid: int | None = None
    serial_number: str | None = None


def parse_spec(spec: str) -> PortSpec:
    spec = spec.strip()
    if spec in ("auto", "sim"):
        return PortSpec(spec)
    if spec.startswith("usb:"):
        parts = spec.split(":")[1:]
        if len(parts) not in (2, 3):
            raise PortSpecError(f"'{spec}': write usb:VID:PID or usb:VID:PID:SERIAL with hex ids, e.g. usb:2341:0043")
        try:
            vid, pid = int(parts[0], 16), int(parts[1], 16)
        except ValueError:
            raise PortSpecError(f"'{spec}': the vendor and product ids are hex numbers, e.g. usb:2341:0043") from None
        return PortSpec("usb", vid=vid, pid=pid, serial_number=parts[2] if len(parts) == 3 else None)
    if not spec:
        raise PortSpecError("an empty serial port; give a device path, 'auto', 'sim' or usb:VID:PID")
    return PortSpec("path", path=spec)


def _by_id_names(by_id: Path) -> dict[str, str]:
    """Real device path -> its stable by-id name."""
    names = {}
    try:
        entries = sorted(by_id.iterdir())
    except OSError:
        return names
    for entry in entries:
        try:
            names.setdefault(os.path.realpath(entry), str(entry))
        except OSError:
            continue
    return names


def _comports():
    from serial.tools import list_ports

    return list_ports.comports()


def discover(spec: PortSpec | None = None, *, ports: Iterable | None = None, by_id: Path = BY_ID) -> list[str]:
    """Candidate ports for ``auto`` or ``usb:...``, best first (by-id names where known).

    ``ports`` are pyserial ``ListPortInfo``-like objects (device, vid, pid,
    serial_number); by default the machine's.
    """
    spec = spec or PortSpec("auto")
    stable = _by_id_names(by_id)
    found: list[str] = []
    for port in (_comports() if ports is None else ports):
        vid, pid = getattr(port, "vid", None), getattr(port, "pid", None)
        if vid is None:
            continue
        if spec.kind == "usb":
            if (vid, pid) != (spec.vid, spec.pid):
                continue
            if spec.serial_number and getattr(port, "serial_number", None) != spec.serial_number:
                continue
        elif (vid, pid) not in KNOWN_USB and (vid, None) not in KNOWN_USB:
            continue
        found.append(stable.get(os.path.realpath(port.device), port.device))
    if not found and spec.kind == "auto":
        # No USB metadata (some containers): fall back to by-id names that say what they are.
        found = [name for name in stable.values() if "arduino" in Path(name).name.lower()]
    return found


def describe_search(spec: PortSpec) -> str:
    if spec.kind == "usb":
        sn = f" with serial number {spec.serial_number}" if spec.serial_number else ""
        return f"no USB serial device {spec.vid:04x}:{spec.pid:04x}{sn} is plugged in"
    known = ", ".join(sorted(set(KNOWN_USB.values())))
    return f"no sensor board found (looked for {known}, and Arduino names in {BY_ID})"
