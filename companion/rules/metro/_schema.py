"""A small JSON-Schema checker for the TOKYO METRO data files (no dependency).

It understands the subset our schema files use (``type``, ``properties``,
``required``, ``additionalProperties``, ``items``, ``minItems``, ``maxItems``,
``uniqueItems``, ``enum``, ``const``, ``minimum``, ``maximum``, ``multipleOf``,
``pattern``, ``minLength``, ``maxLength``, ``$ref`` to ``#/$defs/...``, and our own
``x-fault``: a sentence added to the reason) and stops at the first fault, naming
its place as a JSON pointer.

>>> check({"type": "object", "required": ["a"]}, {}, "x.json")
Traceback (most recent call last):
...
companion.rules.metro._schema.DataError: x.json: /: 'a' is required
"""
from __future__ import annotations

import re
from typing import Any

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


class DataError(ValueError):
    """A data file that does not validate: ``source`` (file), ``where`` (JSON pointer), ``reason``."""

    def __init__(self, source: str, where: str, reason: str):
        super().__init__(f"{source}: {where or '/'}: {reason}")
        self.source, self.where, self.reason = source, where or "/", reason


def pointer(*parts: Any) -> str:
    return "".join(f"/{p}" for p in parts)


def check(schema: dict, data: Any, source: str) -> None:
    """Raise DataError at the first place where ``data`` breaks ``schema``."""
    _check(schema, data, "", schema, source)


def _check(schema: dict, value: Any, where: str, root: dict, source: str) -> None:
    def fail(reason: str) -> None:
        # "x-fault" in a schema says in the data's own terms what is wrong there.
        hint = schema.get("x-fault")
        raise DataError(source, where, f"{reason}: {hint}" if hint else reason)

    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            raise ValueError(f"unsupported $ref {ref!r}")
        _check(root["$defs"][ref[len("#/$defs/"):]], value, where, root, source)
    kind = schema.get("type")
    if kind is not None:
        kinds = kind if isinstance(kind, list) else [kind]
        if not any(_TYPES[k](value) for k in kinds):
            fail(f"expected {' or '.join(kinds)}, found {_describe(value)}")
    if "const" in schema and value != schema["const"]:
        fail(f"must be {schema['const']!r}, not {value!r}")
    if "enum" in schema and value not in schema["enum"]:
        fail(f"{value!r} is not one of {', '.join(map(repr, schema['enum']))}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            fail(f"{value} is below the minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            fail(f"{value} is above the maximum {schema['maximum']}")
        if "multipleOf" in schema and value % schema["multipleOf"]:
            fail(f"{value} is not a multiple of {schema['multipleOf']}")
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            fail(f"{value!r} is shorter than {schema['minLength']} characters")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            fail(f"{value!r} is longer than {schema['maxLength']} characters")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            fail(f"{value!r} does not match the pattern {schema['pattern']}")
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            fail(f"needs at least {schema['minItems']} item(s), has {len(value)}")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            fail(f"allows at most {schema['maxItems']} item(s), has {len(value)}")
        if schema.get("uniqueItems"):
            seen = []
            for i, item in enumerate(value):
                if item in seen:
                    raise DataError(source, f"{where}/{i}", f"{item!r} appears twice")
                seen.append(item)
        if "items" in schema:
            for i, item in enumerate(value):
                _check(schema["items"], item, f"{where}/{i}", root, source)
    if isinstance(value, dict):
        for name in schema.get("required", ()):
            if name not in value:
                fail(f"{name!r} is required")
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            if name in props:
                _check(props[name], item, f"{where}/{name}", root, source)
            elif extra is False:
                raise DataError(source, f"{where}/{name}",
                                f"unknown field {name!r}; known: {', '.join(props)}")
            elif isinstance(extra, dict):
                _check(extra, item, f"{where}/{name}", root, source)


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {value}"
    if isinstance(value, (int, float)):
        return f"number {value}"
    if isinstance(value, str):
        return f"text {value!r}"
    if isinstance(value, list):
        return "a list"
    return "an object"
