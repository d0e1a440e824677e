"""Who is asking: the key a request or WebSocket carries, read the same way everywhere.

A browser carries its keys in cookies, set once when it opens a link (the host link, a join
link, a spectator link) and never written into a URL again; a script sends one key as
``Authorization: Bearer KEY``. A bearer key alone decides; otherwise the cookies are read:

- ``ttc_host``: the host key;
- ``ttc_seat_<game>``: the key of a seat of that game (a player's phone);
- ``ttc_watch_<game>``: the key of that game's spectators.

A device may hold several (the host's own phone, which also plays): the player page asks
with ``as=player`` and only its seat's key is read (a player page never shows the table's
view); the table page reads the host's, then a spectator's, then a seat's. The keys
themselves are checked by ``table.access``.
"""
from __future__ import annotations

from dataclasses import dataclass

from fastapi import HTTPException
from starlette.requests import HTTPConnection

from ..table.access import Access, Grant

HOST_COOKIE = "ttc_host"
COOKIE_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie: a key lasts until revoked

ASK_HOST = "open the host link that `companion serve` printed where it was started"
ASK_LINK = "ask the host for your link (the table view's join panel)"


def seat_cookie(game_id: str) -> str:
    return f"ttc_seat_{game_id}"


def watch_cookie(game_id: str) -> str:
    return f"ttc_watch_{game_id}"


def bearer(conn: HTTPConnection) -> str | None:
    """The key of an ``Authorization: Bearer KEY`` header, if any."""
    value = conn.headers.get("authorization", "")
    scheme, _, key = value.partition(" ")
    return key.strip() if scheme.lower() == "bearer" and key.strip() else None


@dataclass(frozen=True)
class Caller:
    """A request's grant (None: a stranger) and the key that gave it (to check it again later),
    or, without a grant, the wrong key it presented (a replaced link's, a guess)."""

    grant: Grant | None
    key: str | None = None

    @property
    def is_host(self) -> bool:
        return self.grant is not None and self.grant.role == "host"

    @property
    def seat(self) -> int | None:
        """The seat a player acts for; None for the host and spectators (the table view)."""
        return self.grant.seat if self.grant is not None and self.grant.role == "player" else None


class Trust:
    """Reads callers against the table's keys."""

    def __init__(self, access: Access):
        self.access = access

    def caller(self, conn: HTTPConnection, game_id: str | None = None, seats: int = 0,
               as_player: bool = False) -> Caller:
        """Who ``conn`` is for ``game_id`` (a game of ``seats`` seats), or for the table as a
        whole without one."""
        key = bearer(conn)
        if key is not None:
            return Caller(self.access.grant(key, game_id, seats), key)
        names = [HOST_COOKIE]
        if game_id is not None:
            names = [seat_cookie(game_id)] if as_player else [HOST_COOKIE, watch_cookie(game_id), seat_cookie(game_id)]
        wrong = None
        for name in names:
            key = conn.cookies.get(name)
            grant = self.access.grant(key, game_id, seats) if key else None
            if grant is not None:
                return Caller(grant, key)
            wrong = wrong or key
        return Caller(None, wrong)

    def still(self, caller: Caller, game_id: str, seats: int) -> bool:
        """Whether the caller's key still opens what it opened (a revoked key does not)."""
        return caller.grant is not None and self.access.grant(caller.key, game_id, seats) == caller.grant


def require_host(caller: Caller, what: str) -> None:
    if not caller.is_host:
        raise HTTPException(403, f"only the host may {what}: {ASK_HOST}")


def require_any(caller: Caller, game_id: str | None = None) -> None:
    if caller.grant is None and caller.key:
        raise HTTPException(403, "the key this device holds is not valid here (a link replaced by the host, or "
                                 f"never one of this table's): {ASK_LINK}")
    if caller.grant is None:
        raise HTTPException(403, f"this needs a key of the table: {ASK_LINK}, or {ASK_HOST}"
                            if game_id else f"this needs a key of the table: {ASK_HOST}, or open your join link")
    if game_id is not None and not caller.grant.opens(game_id):  # a bearer key of another game
        raise HTTPException(403, f"this key does not open game {game_id}: {ASK_LINK}")
