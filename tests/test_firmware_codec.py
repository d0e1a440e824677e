"""The firmware's protocol C code (compiled for the host with gcc and sanitizers)
and the Python codec give the same answers on the same bytes.

Both are held to firmware/test_vectors.json, then to each other on thousands of
random frames, damaged frames and plain noise fed through their streaming
decoders. The build is `make -C firmware`, the same one `make test` runs; a
missing toolchain fails these tests with the command that fixes it.
"""
from __future__ import annotations

import json
import random
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

from companion.sensors import codec
from companion.sensors.codec import Frame, FrameError

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
VECTORS = json.loads((FIRMWARE / "test_vectors.json").read_text())


def build_firmware() -> None:
    result = subprocess.run(["make", "-C", str(FIRMWARE)], capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail(f"`make -C firmware` failed (missing packages? run `make firmware-deps` as root):\n"
                    f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")


class ProtoTool:
    """firmware/build/proto_tool: one command line in, one answer line out."""

    def __init__(self):
        self.proc = subprocess.Popen([str(FIRMWARE / "build" / "proto_tool")], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, line: str) -> str:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer, f"proto_tool died on {line[:80]!r} (exit {self.proc.poll()})"
        return answer.strip()

    def stream(self, data: bytes) -> list[str]:
        self.proc.stdin.write(f"stream {data.hex()}\n")
        self.proc.stdin.flush()
        out = []
        while (line := self.proc.stdout.readline().strip()) != "END":
            assert line, "proto_tool died in stream"
            out.append(line)
        return out

    def close(self) -> None:
        self.proc.stdin.close()
        assert self.proc.wait(timeout=60) == 0, "proto_tool exited badly (sanitizer report on stderr?)"


@pytest.fixture(scope="module")
def tool():
    build_firmware()
    t = ProtoTool()
    yield t
    t.close()


def _hex(b: bytes) -> str:
    return b.hex() or "-"


def _frame_line(f: Frame) -> str:
    return f"{f.version} {f.type} {f.seq} {_hex(f.payload)}"


def python_stream(data: bytes) -> list[str]:
    """The Python decoder's answers in proto_tool's stream format."""
    out = []
    for item in codec.Decoder().feed(data):
        out.append(f"E {item.code}" if isinstance(item, FrameError) else f"F {_frame_line(item)}")
    return out


# --- the vectors -------------------------------------------------------------------------

def test_schema_text_and_hash_are_the_same_in_c_python_and_vectors(tool):
    hash_, text = tool.ask("schema").split(" ", 1)
    assert text == codec.SCHEMA == VECTORS["schema"]
    assert int(hash_, 16) == codec.SCHEMA_HASH == int(VECTORS["schema_hash"], 16)


@pytest.mark.parametrize("case", VECTORS["crc"], ids=lambda c: c["why"])
def test_crc(tool, case):
    data = bytes.fromhex(case["data"])
    assert f"{codec.crc16(data):04x}" == case["crc"]
    assert tool.ask(f"crc {_hex(data)}") == case["crc"]


@pytest.mark.parametrize("case", VECTORS["cobs"], ids=lambda c: c["data"][:12] or "empty")
def test_cobs(tool, case):
    data, encoded = bytes.fromhex(case["data"]), bytes.fromhex(case["encoded"])
    assert codec.cobs_encode(data) == encoded
    assert codec.cobs_decode(encoded) == data
    assert tool.ask(f"cobs {_hex(data)}") == case["encoded"]
    assert tool.ask(f"uncobs {encoded.hex()}") == _hex(data)


@pytest.mark.parametrize("case", VECTORS["frames"], ids=lambda c: c["message"])
def test_frames(tool, case):
    cls = codec.MESSAGES[case["type"]]
    message = cls(*case["fields"])
    assert message.pack().hex() == case["payload"]
    frame = Frame(case["version"], case["type"], case["seq"], bytes.fromhex(case["payload"]))
    assert codec.frame_bytes(frame).hex() == case["raw"]
    assert codec.encode_frame(frame).hex() == case["wire"]
    chunk = bytes.fromhex(case["wire"])[:-1]
    assert codec.parse_frame(chunk) == frame
    assert frame.message() == message
    # C: build the frame, parse it back, pack and unpack the message
    assert tool.ask(f"frame {frame.version} {frame.type} {frame.seq} {_hex(frame.payload)}") == case["wire"]
    assert tool.ask(f"parse {chunk.hex()}") == f"OK {_frame_line(frame)}"
    name = message.NAME.lower()
    if message.FIELDS and name != "hello_req":
        assert tool.ask(f"pack {name} {' '.join(str(v) for v in case['fields'])}") == _hex(frame.payload)
        assert tool.ask(f"unpack {frame.type} {_hex(frame.payload)}") == " ".join(str(v) for v in case["fields"])


@pytest.mark.parametrize("case", VECTORS["bad_chunks"], ids=lambda c: c["error"] + ": " + c["why"])
def test_bad_chunks_are_refused_with_the_same_reason(tool, case):
    chunk = bytes.fromhex(case["chunk"])
    with pytest.raises(FrameError) as err:
        codec.parse_frame(chunk)
    assert err.value.code == case["error"]
    assert tool.ask(f"parse {chunk.hex()}").split()[:2] == ["ERR", case["error"]]


def test_version_error_still_reports_the_header(tool):
    """A board of another version is named, not just rejected: the header passed its CRC."""
    case = next(c for c in VECTORS["bad_chunks"] if c["error"] == "version")
    with pytest.raises(FrameError) as err:
        codec.parse_frame(bytes.fromhex(case["chunk"]))
    assert (err.value.frame.version, err.value.frame.type) == (2, codec.Hello.TYPE)
    assert tool.ask(f"parse {case['chunk']}").split()[2:4] == ["2", str(codec.Hello.TYPE)]


# --- the two decoders against each other ----------------------------------------------------

def _random_frame(rng: random.Random) -> bytes:
    cls = rng.choice(list(codec.MESSAGES.values()))
    payload = bytes(rng.getrandbits(8) if rng.random() < 0.7 else 0 for _ in range(cls.struct().size))
    return codec.encode_frame(Frame(codec.PROTOCOL_VERSION, cls.TYPE, rng.getrandbits(16), payload))


def _damage(rng: random.Random, data: bytes) -> bytes:
    data = bytearray(data)
    what = rng.random()
    if what < 0.4:
        for _ in range(rng.randint(1, 3)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif what < 0.6:
        del data[rng.randrange(len(data)):][:rng.randint(1, 8)]
    elif what < 0.8:
        at = rng.randrange(len(data))
        data[at:at] = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 8)))
    else:
        data = data[:-1]  # delimiter lost: merges with the next frame
    return bytes(data)


def test_c_and_python_decoders_agree_on_frames_damage_and_noise(tool):
    rng = random.Random(4)
    stream = bytearray()
    for _ in range(3000):
        roll = rng.random()
        if roll < 0.6:
            stream += _random_frame(rng)
        elif roll < 0.9:
            stream += _damage(rng, _random_frame(rng))
        else:
            stream += bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 120)))
    stream += b"\x00"
    python, c = python_stream(bytes(stream)), tool.stream(bytes(stream))
    assert python == c
    kinds = defaultdict(int)
    for line in python:
        kinds[line.split()[0] if line[0] == "F" else line] += 1
    assert kinds["F"] > 1500 and kinds["E crc"] > 50 and kinds["E cobs"] + kinds["E long"] > 10, kinds


def test_crc_catches_every_error_of_up_to_three_bits_in_the_longest_frame():
    """Hamming distance 4 at the longest frame (54 bytes with the CRC), as PROTOCOL.md says.

    An error pattern escapes a CRC exactly when it is a multiple of the
    polynomial, i.e. when the remainders x^i mod g of its bit positions XOR to
    zero. Weight 1 and 2: all remainders differ; weight 3: no pair XORs to a third.
    """
    n = codec.MAX_FRAME * 8
    rem, v = [], 1
    for _ in range(n):
        rem.append(v)
        v <<= 1
        if v & 0x10000:
            v ^= 0x11021
    assert 0 not in rem and len(set(rem)) == n
    where = {r: i for i, r in enumerate(rem)}
    for i in range(n):
        for j in range(i + 1, n):
            k = where.get(rem[i] ^ rem[j])
            assert k is None or k in (i, j), f"bits {i}, {j}, {k} would go unnoticed"
