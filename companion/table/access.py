"""Who may act at the table: the keys a device presents, and what each one opens.

Three kinds of key, each a random URL-safe token kept in the store (``keys``):

- the **host key** opens everything: creating and ending games, undo, the join links, the
  game the tower and cameras feed, observations typed in by hand. It is made once per store
  and printed by ``companion serve``; it is never sent over the network by the service.
- a **seat key** (one per seat of a game, in that seat's join link) lets a phone act for that
  seat and see its secrets, nothing else.
- a **spectator key** (one per game, made when the host first asks for it) shows the table
  view: no secrets, no moves.

A key is revoked by issuing a new one in its place (a lost phone: the seat's link changes and
the old one opens nothing). Keys are compared in constant time; a key that is not ASCII is
simply a wrong key.

>>> import tempfile; from pathlib import Path; from companion.table.store import EventStore
>>> store = EventStore(Path(tempfile.mkdtemp()))
>>> access = Access(store)
>>> access.grant(access.host_key()).role
'host'
>>> access.grant("guess") is None
True
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Literal

from .store import EventStore

Role = Literal["host", "player", "spectator"]
MAX_KEY = 64  # characters: ours have 16 to 32; a longer one is a wrong one, unread


@dataclass(frozen=True)
class Grant:
    """What a key opens: the host (every game), a seat of one game, or one game's table view."""

    role: Role
    game_id: str | None = None
    seat: int | None = None

    def opens(self, game_id: str) -> bool:
        """Whether this key shows ``game_id`` at all."""
        return self.role == "host" or self.game_id == game_id


def new_token(size: int = 16) -> str:
    return secrets.token_urlsafe(size)


def _same(a: str, b: str) -> bool:
    return secrets.compare_digest(a.encode("ascii"), b.encode("ascii"))


class Access:
    """The table's keys over the store (thread-safe: each call is one store transaction)."""

    def __init__(self, store: EventStore):
        self.store = store

    # --- the host -------------------------------------------------------------------------------

    def host_key(self) -> str:
        """The host key, made the first time it is asked for and kept from then on."""
        return self.store.key("host") or self.store.add_key("host", new_token(24))

    def new_host_key(self) -> str:
        """Replace the host key: every device that held the old one is a stranger again."""
        key = new_token(24)
        self.store.set_key("host", key)
        return key

    # --- seats and spectators -------------------------------------------------------------------

    def seat_key(self, game_id: str, seat: int) -> str:
        """The key in seat ``seat``'s join link. A game's first keys are those made with it
        (its settings' ``tokens``), so that the links handed out before a restart keep working."""
        scope = f"seat:{game_id}:{seat}"
        known = self.store.key(scope)
        if known is not None:
            return known
        tokens = self.store.game(game_id).config.get("tokens") or []
        first = tokens[seat] if seat < len(tokens) and isinstance(tokens[seat], str) else new_token(12)
        return self.store.add_key(scope, first)

    def revoke_seat(self, game_id: str, seat: int) -> str:
        """A new key for the seat (its new join link); the old key opens nothing from now on."""
        key = new_token(12)
        self.store.set_key(f"seat:{game_id}:{seat}", key)
        return key

    def spectator_key(self, game_id: str) -> str:
        return self.store.key(f"watch:{game_id}") or self.store.add_key(f"watch:{game_id}", new_token(12))

    def revoke_spectators(self, game_id: str) -> str:
        key = new_token(12)
        self.store.set_key(f"watch:{game_id}", key)
        return key

    # --- reading a key --------------------------------------------------------------------------

    def grant(self, key: str | None, game_id: str | None = None, seats: int = 0) -> Grant | None:
        """What ``key`` opens: the host's grant, or (given the game and its number of seats) a
        seat's or the spectators'; None for no key or a wrong one."""
        if not key or len(key) > MAX_KEY or not key.isascii():
            return None
        if _same(key, self.host_key()):
            return Grant("host")
        if game_id is None:
            return None
        for seat in range(seats):
            if _same(key, self.seat_key(game_id, seat)):
                return Grant("player", game_id, seat)
        watch = self.store.key(f"watch:{game_id}")
        if watch is not None and _same(key, watch):
            return Grant("spectator", game_id)
        return None
