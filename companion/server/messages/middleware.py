"""Every error the server answers, in the language of the request that gets it.

An ASGI middleware outside all the others (the Guard's and BodyLimit's answers are errors too):
an answer of status 400-499 whose body is JSON with a ``detail`` gets that detail translated
(messages/translate.py), the English original kept beside it in ``detail_en`` (for logs and bug
reports) when it changed. The body keeps its shape (``{"detail": ...}``, /openapi.json). Anything
else passes untouched and unread, and so does every answer to a request that wants English.
Whatever goes wrong in translating, the English answer is sent: a translation never makes a 5xx.
"""
from __future__ import annotations

import json
import logging
from typing import Any, Awaitable, Callable

from .language import SOURCE, language_of
from .translate import offered, translator

log = logging.getLogger(__name__)
Message = dict[str, Any]


def translated_body(body: bytes, lang: str) -> bytes | None:
    """The error body in ``lang`` (None: leave it as it is)."""
    try:
        data = json.loads(body)
    except ValueError:   # no body (HEAD), or not JSON after all
        return None
    if not isinstance(data, dict) or "detail" not in data:
        return None
    detail = translator(lang).detail(data["detail"])
    if detail == data["detail"]:
        return None
    extra = {"detail_en": data["detail"]} if isinstance(data["detail"], str) else {}
    return json.dumps({**data, "detail": detail, **extra}, ensure_ascii=False).encode("utf-8")


class TranslateErrors:
    """ASGI middleware: 4xx JSON details in the request's language."""

    def __init__(self, app: Callable):
        self.app = app
        self.languages = offered()

    async def __call__(self, scope: dict, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lang = language_of(scope.get("headers") or (), self.languages)
        if lang == SOURCE:
            await self.app(scope, receive, send)
            return
        held: Message | None = None   # the start of an error answer, held until its body is whole
        chunks: list[bytes] = []

        async def translating(message: Message) -> None:
            nonlocal held
            if message["type"] == "http.response.start" and held is None and _is_json_error(message):
                held = message
                return
            if held is None or message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            start, body = held, b"".join(chunks)
            try:
                better = translated_body(body, lang)
            except Exception:  # noqa: BLE001 - the English answer is always right
                log.exception("an error's detail could not be translated to %s; sent in English", lang)
                better = None
            if better is not None:
                headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
                start = {**start, "headers": [*headers, (b"content-length", str(len(better)).encode()),
                                              (b"content-language", lang.encode())]}
                body = better
            await send(start)
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, translating)


def _is_json_error(start: Message) -> bool:
    if not 400 <= start.get("status", 200) < 500:
        return False
    for key, value in start.get("headers", []):
        if key.lower() == b"content-type":
            return value.split(b";")[0].strip().lower() == b"application/json"
    return False


def close_reason(headers, text: str, limit: int = 120) -> str:
    """A WebSocket's close reason in the language its request wants, cut to ``limit`` bytes of
    UTF-8 (the most a close frame carries is 123) at a character's end."""
    lang = language_of(headers or (), offered())
    said = translator(lang).message(text) if lang != SOURCE else text
    return said.encode("utf-8")[:limit].decode("utf-8", "ignore")
