"""Observations: what the camera, the sensors, the simulated table or a person saw.

An observation decides nothing; the table session asks the engine what it means
in the current state. It is shared by ``vision``, ``sensors`` and ``sim`` (which
must not import the rules) and by ``table`` (which interprets it).
"""
from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field, field_validator

from .drinks import DRINK_IDS, TOWER_ITEM_IDS

# Bounds of an observation, checked before it is stored (the log keeps it for ever).
MAX_DRINKS = len(DRINK_IDS)   # drinks listed as appeared or removed: there are 36 in the box
MAX_PASSES = 0xFFFF           # beam passes in one report: the board counts lost passes in 16 bits
MAX_DETAIL_BYTES = 16_384     # the detail as JSON: a camera's detections of a full tray take ~6 KB

# The drinks' rules, in the schema too (/openapi.json): a client reads which ids there are and that
# none is listed twice; the validator below still says what was wrong in words. Besides the 36
# drinks, an add-on's items that go through the tower (detergent bottles: drinks.py) may be
# reported by the simulated table or a person; a camera reads drinks alone.
DRINK_LIST = {"items": {"type": "string", "enum": list(TOWER_ITEM_IDS)}, "uniqueItems": True}


def _whole(value: Any) -> Any:
    """2.0 is the whole number 2 (as JSON Schema's "integer" has it); True and "2" are not numbers."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def whole_number(**bounds: int) -> Any:
    """A whole number as JSON Schema's "integer" has it, within ``bounds`` (ge, le, lt, ...).
    Pydantic's lax int would also take true as 1 and "7" as 7, which the schema refuses
    (Schemathesis sends them and expects a 422). The bounds come before the validator that
    turns 2.0 into 2: after it, pydantic writes them into the schema as unknown words (ge, lt)."""
    return Annotated[int, Field(strict=True, **bounds), BeforeValidator(_whole)]


Passes = whole_number(ge=0, le=MAX_PASSES)   # beam passes in one report


class Observation(BaseModel):
    """Drinks that appeared in (or were taken from) the output tray, or beam counts.

    ``appeared`` are drinks that landed since the tray was last still; ``removed``
    are drinks a hand took out. ``confidence`` (0-1) is how sure the source is; the
    table asks a person to confirm below its threshold.
    """

    source: Literal["camera", "sensors", "sim", "person"] = "person"
    kind: Literal["tray", "beams"] = "tray"
    appeared: list[str] = Field(default_factory=list, max_length=MAX_DRINKS, json_schema_extra=DRINK_LIST)
    removed: list[str] = Field(default_factory=list, max_length=MAX_DRINKS, json_schema_extra=DRINK_LIST)
    # kind "beams": drinks counted by the break-beams at the input slot and the exit chute
    passes_in: Passes = 0
    passes_out: Passes = 0
    confidence: float = Field(1.0, ge=0.0, le=1.0, strict=True)  # a number: false is not 0.0
    # source-specific facts for the log and the dashboard (detections, beam widths, event ids)
    detail: dict = Field(default_factory=dict, description=f"at most {MAX_DETAIL_BYTES} bytes as JSON")

    @field_validator("detail")
    @classmethod
    def _small_detail(cls, value: dict) -> dict:
        size = len(json.dumps(value, ensure_ascii=False, default=str).encode("utf-8", "surrogatepass"))
        if size > MAX_DETAIL_BYTES:
            raise ValueError(f"the detail takes {size} bytes as JSON; at most {MAX_DETAIL_BYTES} are kept")
        return value

    @field_validator("appeared", "removed")
    @classmethod
    def _known_drinks(cls, value: list[str]) -> list[str]:
        unknown = [d for d in value if d not in TOWER_ITEM_IDS]
        if unknown:
            raise ValueError(f"unknown drink id(s) {', '.join(unknown)}; ids look like 'red-short_can' "
                             f"(or 'detergent-1' for an add-on's bottle)")
        if len(set(value)) != len(value):
            raise ValueError("a drink is listed twice")
        return value
