"""What the live-view benchmarks share: a device holding a live view (a WebSocket) open, noting
when each view arrived, and the processes that keep the machine busy (``--hog``)."""
from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
import time
from urllib.parse import urlsplit

from websockets.sync.client import connect

from server_support import authorization

# A view's seq, found without decoding 50-80 KB of JSON in 20 threads: the one followed by
# "can_undo" (table/views.py), not the first "seq" in the text, which is a feed entry's.
SEQ = re.compile(r'"seq":\s*(\d+),\s*"can_undo"')


class Device(threading.Thread):
    """A live view held open: every view it is sent, with the time it arrived. ``address``: the
    device's own loopback address (a tablet, a phone: the server bounds the live views of one key
    from one address)."""

    def __init__(self, url: str, key: str, as_player: bool, address: str | None = None):
        super().__init__(daemon=True)
        sock = None
        if address is not None:
            where = urlsplit(url)
            sock = socket.socket()
            sock.bind((address, 0))
            sock.connect((where.hostname, where.port))
        self.ws = connect(url + ("?as=player" if as_player else ""), sock=sock, additional_headers=authorization(key),
                          max_size=2 ** 24, open_timeout=60)
        self.seen: list[tuple[float, int]] = []   # (monotonic arrival, the view's seq)
        self.lock = threading.Lock()

    def run(self) -> None:
        try:
            for message in self.ws:
                found = SEQ.search(message)
                with self.lock:
                    self.seen.append((time.monotonic(), int(found.group(1)) if found else -1))
        except Exception:  # closed
            pass

    def first_at(self, seq: int) -> float | None:
        with self.lock:
            return next((t for t, s in self.seen if s >= seq), None)

    def close(self) -> None:
        self.ws.close()


def hogs(n: int) -> list[subprocess.Popen]:
    """``n`` processes spinning (end them with ``kill``)."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
