"""Refusals translated at the server's boundary: the rules, the table and the server write their
messages in English (the source text: the rules stay pure and know of no language); here an
English message is matched against the templates of a language's catalogue and said in that
language.

A catalogue, ``<lang>.json`` beside this module, holds:

- ``messages``: English template -> translation. A template is the message as the source writes
  it, its f-string parts as ``{slots}`` named by their expression (``"a drink costs
  {o.drink_price} yen and you have {seat.yen}"``); the translation uses the same slots, in its own
  order. Literal braces are doubled, as in an f-string. tests/message_sources.py finds every
  template in companion/'s source; tests/test_error_messages.py checks each is translated.
- ``validation``: pydantic's error type -> the translation of its message, with the error's
  ``ctx`` as slots (``"greater_than_equal": "muss mindestens {ge} sein"``).

A message no template matches stays English, as it is (a translation is never a reason to fail).
A slot's text is translated too where it is a message of its own (``the game waits for {waiting}``:
what it waits for is a template too), except slots shown as written (``{name!r}``, ids and names).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SLOT = re.compile(r"\{\{|\}\}|\{([^{}]+)\}")
DEPTH = 3   # how deep slots are translated (a message inside a message inside a message)
# A template with less literal text than this matches only a slot's text, never a whole message:
# "{allowed[0]} to {allowed[-1]}" would match any English sentence with " to " in it.
GENERIC = 8
# The longest text matched: a message of ours is under 600 characters, a part of it under 300;
# a longer one holds a caller's own text (a move's kind of 4 KB), which could make the patterns
# backtrack for long, and is left as it is.
LONGEST, LONGEST_PART = 2000, 300


def shown_as_written(slot: str) -> bool:
    """Whether a slot's text is shown as it is: an id quoted for the caller to type (``!r``), a
    player's or a game's name or title, a game or a card id, a kind of move (the API's word, and
    often the caller's own text), a page's origin."""
    return ("!r" in slot or "name" in slot or "title" in slot or "kind" in slot or "origin" in slot
            or slot == "game" or slot.endswith("id"))


@cache  # the catalogues ship with the code: read the folder once, not on every closed socket
def offered() -> tuple[str, ...]:
    """The languages with a catalogue (English, the source, needs none)."""
    return tuple(sorted(p.stem for p in HERE.glob("*.json")))


@cache
def load_catalogue(lang: str) -> dict[str, dict[str, str]]:
    if lang not in offered():
        return {"messages": {}, "validation": {}}
    data = json.loads((HERE / f"{lang}.json").read_text(encoding="utf-8"))
    return {"messages": dict(data.get("messages", {})), "validation": dict(data.get("validation", {}))}


def slots(template: str) -> list[str]:
    """The slots of a template, in order (a slot named twice counts twice)."""
    return [m.group(1) for m in SLOT.finditer(template) if m.group(1) is not None]


def fill(template: str, values: dict[str, str]) -> str:
    """The template with its slots filled (an unknown slot is left as written) and braces undoubled."""
    def one(m: re.Match) -> str:
        if m.group(1) is None:
            return m.group(0)[0]
        return values.get(m.group(1), m.group(0))
    return SLOT.sub(one, template)


@dataclass(frozen=True)
class Template:
    english: str
    pattern: re.Pattern
    names: tuple[str, ...]
    weight: int   # literal characters: of two templates that match, the one that says more wins


# What a slot's text can be. A ``!r`` slot is one value as Python writes it (a quoted text, a
# number, a list): never a sentence, so "{name!r} must be ..." cannot swallow "the 'bid' move is
# malformed: 'amount'". A slot right before another is one word ("{t.price}{extra}": "500", " + 200 ...").
# A slot known to hold a whole number matches digits alone, so that "{allowed[0]} to {allowed[-1]}"
# ("2 to 6") does not take "Ben to add to the pot".
ANY = "(.*?)"
NUMBER = r"(-?\d[\d,]*)"
NUMERIC = re.compile(r"^(len\(.*\)|allowed\[.*\]|.*\byen)$")
REPR = r"""('[^']*'|"[^"]*"|\[[^\]]*\]|\([^)]*\)|\{[^}]*\}|[^\s'"]+)"""
WORD = r"(\S*)"


def _compile(english: str) -> Template:
    parts, names, weight, at = [], [], 0, 0
    found = list(SLOT.finditer(english))
    for i, m in enumerate(found):
        literal = english[at:m.start()]
        parts.append(re.escape(literal))
        weight += len(literal)
        if m.group(1) is None:          # a doubled brace: one literal brace
            parts.append(re.escape(m.group(0)[0]))
            weight += 1
        else:
            adjacent = i + 1 < len(found) and found[i + 1].start() == m.end() and found[i + 1].group(1)
            parts.append(REPR if "!r" in m.group(1) else NUMBER if NUMERIC.match(m.group(1))
                         else WORD if adjacent else ANY)
            names.append(m.group(1))
        at = m.end()
    parts.append(re.escape(english[at:]))
    weight += len(english) - at
    return Template(english, re.compile("".join(parts), re.DOTALL), tuple(names), weight)


class Translator:
    """One language's catalogue, compiled."""

    def __init__(self, lang: str, catalogue: dict[str, dict[str, str]]):
        self.lang = lang
        self.texts = catalogue["messages"]
        self.validation = catalogue["validation"]
        self.templates = sorted((_compile(t) for t in self.texts), key=lambda t: -t.weight)
        # Templates without slots are looked up whole, before any pattern is tried.
        self.whole = {t: text for t, text in self.texts.items() if not slots(t)}

    def message(self, text: str, depth: int = 0) -> str:
        """``text`` in this language, or as it is when no template matches."""
        if not isinstance(text, str) or not text or len(text) > (LONGEST_PART if depth else LONGEST):
            return text
        exact = self.whole.get(text.replace("{", "{{").replace("}", "}}"))
        if exact is not None:
            return fill(exact, {})
        for template in self.templates:
            if not template.names or (depth == 0 and template.weight < GENERIC):
                continue
            m = template.pattern.fullmatch(text)
            if m is None:
                continue
            values: dict[str, str] = {}
            for name, value in zip(template.names, m.groups()):
                if name in values:
                    continue
                kept = shown_as_written(name) or depth >= DEPTH
                values[name] = value if kept else self.message(value, depth + 1)
            return fill(self.texts[template.english], values)
        return text

    def error(self, error: dict) -> dict:
        """One of pydantic's validation errors (as FastAPI lists them) with its ``msg`` in this
        language; its ``loc``, ``type`` and the rest kept."""
        if not isinstance(error, dict) or not isinstance(error.get("msg"), str):
            return error
        template = self.validation.get(str(error.get("type")))
        ctx = error.get("ctx") if isinstance(error.get("ctx"), dict) else {}
        if template is None:
            return {**error, "msg": self.message(error["msg"])}
        values = {k: self.message(str(v)) for k, v in ctx.items()}
        if error.get("type") == "value_error":   # the validator's own words: "Value error, <message>"
            values["error"] = self.message(error["msg"].removeprefix("Value error, "))
        return {**error, "msg": fill(template, values)}

    def detail(self, detail: Any) -> Any:
        """An error body's ``detail`` (a text, or FastAPI's list of validation errors) in this language."""
        if isinstance(detail, str):
            return self.message(detail)
        if isinstance(detail, list):
            return [self.error(e) for e in detail]
        return detail


@cache
def translator(lang: str) -> Translator:
    return Translator(lang, load_catalogue(lang))
