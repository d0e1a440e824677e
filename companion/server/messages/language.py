"""Which language a request wants its refusals in.

The dashboard says so with its cookie ``ttc_lang`` (and an ``Accept-Language`` header of the
language chosen on every request it makes, static/js/api.js); a script or a browser that says
nothing else is answered by its ``Accept-Language`` (the first language offered, by weight);
anything else in English, the language the messages are written in.
"""
from __future__ import annotations

from http.cookies import CookieError, SimpleCookie
from typing import Iterable

LANG_COOKIE = "ttc_lang"
SOURCE = "en"   # the language the project's messages are written in


def _cookie(header: str | None) -> str | None:
    if not header:
        return None
    jar = SimpleCookie()
    try:
        jar.load(header)
    except CookieError:
        return None
    morsel = jar.get(LANG_COOKIE)
    return morsel.value if morsel else None


def _weighted(header: str) -> list[str]:
    """``de-CH, de;q=0.9, en;q=0.8`` -> ["de", "de", "en"]: the primary tags, best first."""
    ranked = []
    for i, part in enumerate(header.split(",")[:20]):   # a header is short; a long one is read in part
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and q > 0:
            ranked.append((-q, i, tag.strip().lower().split("-")[0]))
    return [tag for _, _, tag in sorted(ranked)]


def choose_language(cookie_header: str | None, accept_language: str | None, offered: Iterable[str]) -> str:
    """The language of the answer: the cookie's, else the first offered one Accept-Language
    names (``*`` and unknown ones skipped), else English."""
    offered = set(offered) | {SOURCE}
    chosen = (_cookie(cookie_header) or "").lower()
    if chosen in offered:
        return chosen
    for tag in _weighted(accept_language or ""):
        if tag in offered:
            return tag
    return SOURCE


def language_of(headers: Iterable[tuple[bytes, bytes]], offered: Iterable[str]) -> str:
    """:func:`choose_language` for an ASGI scope's raw headers."""
    cookie = accept = None
    for key, value in headers:
        if key == b"cookie":
            cookie = value.decode("latin-1") if cookie is None else f"{cookie}; {value.decode('latin-1')}"
        elif key == b"accept-language":
            accept = value.decode("latin-1")
    return choose_language(cookie, accept, offered)
