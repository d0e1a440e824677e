"""The table's look book: what the host's corrections taught the camera, kept beside the store.

Each look (table/corrections.py) is one entry: the drink it really was, what the camera read,
the look itself, and the move that taught it (game, its place among the game's moves in
effect, record number). The camera reads with its profile plus the looks taught for that
profile (vision/taught.py ``with_taught``); a look taught with another profile (another camera,
another tray) is kept for that one and not used.

- Bounded: ``vision.taught.kept`` (a few looks per drink, a few dozen in all; the oldest go).
- Undoable: an undo that takes back a teaching move takes back its looks (``take_back``); the
  host can also forget them all (``forget``).
- Kept across a restart: ``learned-looks.json`` in the data folder, written whole to a new
  file that replaces the old one, so a crash leaves the old book or the new one. A move undone
  while the book could not be written is caught at the next start (``settle``): a look whose
  move is no longer in effect in its game is dropped.
- Looks are public: they come from drops, which everyone at the table sees.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping

from ..vision.profile import Profile
from ..vision.taught import kept, pose_of, taught_count, with_taught

log = logging.getLogger(__name__)
KIND = "tokyo-table-companion/learned-looks"
VERSION = 1


def fingerprint(path: str | Path) -> str:
    """Which profile a look belongs to: a hash of the profile file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


class LookBook:
    FILE_NAME = "learned-looks.json"

    def __init__(self, data_dir: str | Path | None):
        """``data_dir``: the store's folder (None: looks are kept in memory only)."""
        self.path = Path(data_dir) / self.FILE_NAME if data_dir is not None else None
        self.lock = threading.RLock()
        self.profile: str | None = None     # the fingerprint of the profile the camera reads with
        self.stats: dict = {}               # that profile's stats (to judge a look before keeping it)
        self.problem: str | None = None     # why the file cannot be used (it is then left as it is)
        self.listeners: list[Callable[[], None]] = []
        self.books: dict[str, list[dict]] = self._load()

    # --- reading ----------------------------------------------------------------------------

    def use(self, profile_path: str | Path, profile: Profile) -> Profile:
        """The camera reads with this profile from now on: the same profile with the looks taught
        for it."""
        with self.lock:
            self.profile, self.stats = fingerprint(profile_path), dict(profile.stats)
            return self.profile_for(profile)

    def profile_for(self, profile: Profile) -> Profile:
        with self.lock:
            return with_taught(profile, [(e["drink"], e["look"]) for e in self.entries()])

    def entries(self) -> list[dict]:
        """The looks taught for the profile in use, oldest first."""
        with self.lock:
            return [dict(e) for e in self.books.get(self.profile or "", [])]

    def summary(self) -> dict:
        """``corrections`` (the moves whose looks are kept), ``looks``, ``drinks`` (looks per
        drink), ``problem`` (why they are not kept across a restart, or None)."""
        with self.lock:
            entries = self.entries()
            drinks: dict[str, int] = {}
            for e in entries:
                drinks[e["drink"]] = drinks.get(e["drink"], 0) + 1
            return {"corrections": len({(e["game"], e["move"]) for e in entries}), "looks": len(entries),
                    "drinks": dict(sorted(drinks.items())), "problem": self.problem}

    @staticmethod
    def in_use(profile: Profile) -> int:
        return taught_count(profile)

    # --- changing ---------------------------------------------------------------------------

    def teach(self, game: str, move: int, seq: int, out: list[str], taught: list[dict]) -> int:
        """Keep the looks a move taught (``move``: its index among the game's moves in effect,
        ``seq``: its record number, ``out``: its drinks); how many were kept. A look that cannot
        be a pose of its drink with the profile in use (a piece far too small or large) is not."""
        with self.lock:
            if self.profile is None:
                return 0
            now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            new = [{"drink": t["drink"], "read": t["read"], "look": t["look"], "game": game, "move": move,
                    "seq": seq, "out": sorted(out), "at": now}
                   for t in taught if pose_of(t["look"], t["drink"], self.stats) is not None]
            if not new:
                return 0
            self.books[self.profile] = kept([*self.books.get(self.profile, []), *new])
            self._changed()
            return len(new)

    def take_back(self, game: str, moves_in_effect: int) -> None:
        """An undo left ``moves_in_effect`` moves of ``game`` in effect: the looks of the moves
        beyond them go (of every profile: an undone move taught nothing)."""
        with self.lock:
            changed = False
            for fp, entries in self.books.items():
                left = [e for e in entries if not (e["game"] == game and e["move"] >= moves_in_effect)]
                changed |= len(left) != len(entries)
                self.books[fp] = left
            if changed:
                self._changed()

    def forget(self) -> dict:
        """The host's "forget learned looks": the camera reads with its profile alone again."""
        with self.lock:
            if self.books.get(self.profile or ""):
                self.books[self.profile] = []
                self._changed()
            return self.summary()

    def settle(self, moves_of: Callable[[str], list[Any] | None]) -> None:
        """At start: drop the looks of a move no longer in effect. ``moves_of(game)``: the game's
        moves in effect (``Move`` each), or None for a game that is not open (its looks stay)."""
        with self.lock:
            changed = False
            for fp, entries in self.books.items():
                left = []
                for e in entries:
                    moves = moves_of(e["game"])
                    gone = moves is not None and (e["move"] >= len(moves) or sorted(
                        moves[e["move"]].args.get("out", ())) != e["out"])
                    changed |= gone
                    if not gone:
                        left.append(e)
                self.books[fp] = left
            if changed:
                log.info("learned looks: dropped the looks of moves undone while they could not be written")
                self._changed()

    # --- the file ---------------------------------------------------------------------------

    def _changed(self) -> None:
        self._save()
        for listener in list(self.listeners):
            listener()

    def _load(self) -> dict[str, list[dict]]:
        if self.path is None or not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(data, Mapping) or data.get("kind") != KIND or data.get("version") != VERSION:
                raise ValueError("not a look book of this version")
            books = {str(fp): [dict(e) for e in entries if _entry_ok(e)]
                     for fp, entries in dict(data.get("profiles") or {}).items()}
            return {fp: kept(entries) for fp, entries in books.items()}
        except (OSError, UnicodeDecodeError, ValueError, TypeError, AttributeError) as exc:
            self.problem = (f"{self.path} cannot be read ({exc}); it is left as it is, and what the camera "
                            "learns now is kept until the service stops. Move it aside to keep it again.")
            log.error("learned looks: %s", self.problem)
            return {}

    def _save(self) -> None:
        if self.path is None or self.problem is not None:
            return
        body = json.dumps({"kind": KIND, "version": VERSION, "profiles": self.books}, indent=1, sort_keys=True)
        part = self.path.with_name(self.path.name + ".new")
        try:
            with open(part, "w", encoding="utf-8") as f:
                f.write(body + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(part, self.path)
        except OSError as exc:
            log.error("learned looks: cannot write %s (%s); they are kept until the service stops", self.path, exc)


def _entry_ok(e: Any) -> bool:
    return (isinstance(e, Mapping) and isinstance(e.get("drink"), str) and isinstance(e.get("look"), Mapping)
            and isinstance(e.get("game"), str) and isinstance(e.get("move"), int)
            and isinstance(e.get("out"), list))
