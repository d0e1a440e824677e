"""JSON request bodies read strictly: numbers are finite, or the request is refused.

Python's ``json`` reads ``NaN``, ``Infinity`` and ``-Infinity`` (which JSON does not have) and
turns a number too big for a float (``1e400``) into infinity. Let in, such a value fails much
later: in a reply (which cannot be written as JSON) or in the store (which writes strict JSON),
as a 500. Here it is refused at the door, the way FastAPI refuses malformed JSON: a 422 whose
``json_invalid`` error says where, what and what to send instead.
"""
from __future__ import annotations

import json
import math
from typing import Any, Callable

from fastapi import Request, Response
from fastapi.routing import APIRoute

WHAT_TO_SEND = "send a finite number, or null where a value may be left out"
MAX_INT_DIGITS = 30  # a whole number longer than this is refused unread (no field takes one near it)


def loads_finite(text: str | bytes) -> Any:
    """``json.loads``, but a JSONDecodeError (saying what to send) for a number that is not finite
    or a whole number of more than MAX_INT_DIGITS digits (Python's own limit, 4,300, gave a 400
    without a reason)."""
    if isinstance(text, (bytes, bytearray)):  # as json.loads decodes bytes; FastAPI answers a
        text = text.decode(json.detect_encoding(text), "surrogatepass")  # decoding error with a 400

    def constant(name: str) -> float:
        raise json.JSONDecodeError(f"{name} is not a number JSON allows: {WHAT_TO_SEND}", text,
                                   max(0, text.find(name)))

    def number(literal: str) -> float:
        value = float(literal)
        if not math.isfinite(value):
            raise json.JSONDecodeError(f"{literal} is too big for a number here: {WHAT_TO_SEND}", text,
                                       max(0, text.find(literal)))
        return value

    def whole(literal: str) -> int:
        if len(literal.lstrip("-")) > MAX_INT_DIGITS:
            raise json.JSONDecodeError(f"a whole number of {len(literal.lstrip('-'))} digits is too long: at most "
                                       f"{MAX_INT_DIGITS} digits", text, max(0, text.find(literal)))
        return int(literal)

    return json.loads(text, parse_constant=constant, parse_float=number, parse_int=whole)


class StrictJSONRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = loads_finite(await self.body())
        return self._json


class StrictJSONRoute(APIRoute):
    """A route whose JSON body is read by :func:`loads_finite` (``app.router.route_class``)."""

    def get_route_handler(self) -> Callable:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict
