"""The OpenAPI document describes every answer the API gives, errors included.

FastAPI documents a route's success and the 422 of its own validation. The API answers more,
and a client (or Schemathesis, tests/test_api_schema.py) reading ``/openapi.json`` should
find each of them, with its body:

- every route: 400 (a request the server cannot read or will not answer: a body that is not
  text, a Host header it does not answer to) and 413 (a body over the limit, server/body_limit.py; a GET too);
- a route that reads a credential (a ``token``, an ``Authorization`` header, a security
  dependency): 403 for a missing or wrong one;
- a route with path parameters: 404 (no such game, no such seat); one on a game
  (``{game_id}``) also 409 (a game set aside, or a move the rules refuse: ``Tables.get``, ``act``);
- a route with a body: 422, whose ``detail`` is FastAPI's list of validation errors or, for
  a refusal the route words itself (``bots must be seats ...``), a string.

Every error body is ``{"detail": ...}`` (FastAPI's HTTPException handler, body_limit.py), its
detail in the request's language with the English beside it in ``detail_en`` (server/messages/). A
route that answers a file (``qr.svg``, ``camera.jpg``) gets its success documented as that
file's media type, not as JSON. Statuses a route declares itself (estimates' 429) are kept.

Also here, because it is the other half of "the answers are what the document says": a 405
lists in ``Allow`` every method the path has. Starlette lists only those of the first route
that matched the path (``OPTIONS /api/games`` said ``Allow: GET`` though POST is documented).
"""
from __future__ import annotations

import mimetypes
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.routing import Match

from .body_limit import RESPONSE_413

ERROR = {"type": "object", "required": ["detail"], "properties": {
    "detail": {"type": "string", "description": "why, in the language the request asked for (`Accept-Language`, "
                                                "the cookie `ttc_lang`; English where no translation exists)"},
    "detail_en": {"type": "string", "description": "the English original, when `detail` is a translation "
                                                   "(server/messages/)"}}}
CREDENTIALS = {"token", "authorization"}  # parameter or body field names that carry one
MEDIA_TYPES = mimetypes.MimeTypes()  # Python's own table, the same on every machine (not /etc/mime.types)

EVERY_ROUTE = {400: "a request this server cannot read or will not answer: a body that is not text, "
                    "a Host header it does not answer to",
               413: RESPONSE_413[413]["description"]}
CREDENTIAL = {403: "not allowed: the credential (a player's token or `Authorization: Bearer`) is missing or wrong"}
PATH = {404: "no such game (GET /api/games lists them), or nothing there: a seat it does not have, "
             "estimates it does not make"}
GAME = {409: "the game is set aside (a stored record cannot be read), or its rules refuse this now; "
             "`detail` says why"}
BODY = {422: "the body (or a parameter) is not what this route takes; `detail` says where and why"}


def document_errors(app: FastAPI) -> None:
    """Make ``app.openapi()`` describe every status each route answers, and 405s list every method."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if not app.openapi_schema:   # built once, by FastAPI, then completed here
            _complete(build())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.add_exception_handler(405, _method_not_allowed)


def _complete(document: dict[str, Any]) -> None:
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas["Error"] = ERROR
    # A 422 FastAPI raises has a list of errors; one a route raises itself, a sentence.
    validation = schemas.get("HTTPValidationError")
    if validation is not None:
        listed = validation["properties"]["detail"]
        validation["properties"]["detail"] = {"title": "Detail", "anyOf": [
            {"type": "string"}, {k: v for k, v in listed.items() if k != "title"}]}
    for path, operations in document.get("paths", {}).items():
        for operation in operations.values():
            _complete_operation(path, operation, schemas)


def _complete_operation(path: str, operation: dict[str, Any], schemas: dict[str, Any]) -> None:
    responses = operation["responses"]
    in_path = {p["name"] for p in operation.get("parameters", ()) if p["in"] == "path"}
    statuses = dict(EVERY_ROUTE)
    if _reads_credential(operation, schemas):
        statuses |= CREDENTIAL
    if in_path:
        statuses |= PATH
    if "game_id" in in_path:
        statuses |= GAME
    if "requestBody" in operation:
        statuses |= BODY
    for status, description in statuses.items():
        responses.setdefault(str(status), {"description": description})
    for status, response in responses.items():
        if status.startswith(("4", "5")) and not response.get("content"):
            ref = "HTTPValidationError" if status == "422" and "HTTPValidationError" in schemas else "Error"
            response["content"] = {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}
    # A route named like a file (qr.svg, camera.jpg) answers that file, whatever FastAPI guessed.
    media_type, _ = MEDIA_TYPES.guess_type(path)
    if media_type and "json" not in media_type:
        for status, response in responses.items():
            if status.startswith("2"):
                response["content"] = {media_type: {"schema": {"type": "string", "format": "binary"}}}


def _reads_credential(operation: dict[str, Any], schemas: dict[str, Any]) -> bool:
    """Whether the operation as documented takes a credential: a security requirement, or a
    parameter or body field named like one (the body's model, when it is a reference)."""
    names = {p["name"].lower() for p in operation.get("parameters", ())}
    for content in operation.get("requestBody", {}).get("content", {}).values():
        ref = content.get("schema", {}).get("$ref", "")
        names |= {n.lower() for n in schemas.get(ref.rsplit("/", 1)[-1], {}).get("properties", {})}
    return bool(operation.get("security")) or bool(names & CREDENTIALS)


async def _method_not_allowed(request: Request, exc: HTTPException) -> Response:
    """405 with ``Allow`` naming the methods of every route on this path, not only the first."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)
        if match is not Match.NONE and getattr(route, "methods", None):
            methods |= route.methods
    if methods:
        exc.headers = {**(exc.headers or {}), "Allow": ", ".join(sorted(methods))}
    return await http_exception_handler(request, exc)
