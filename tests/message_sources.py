"""The English messages that can reach a client, found in companion/'s source by reading it.

A refusal's text is written once, in English, where it is raised (mostly f-strings in the rules).
The server translates it at its boundary (companion/server/messages/) by matching it against
templates: each template is the message as written in the source, its f-string parts kept as
``{slots}`` named by their expression (``"a drink costs {o.drink_price} yen and you have {seat.yen}"``).
This module finds those templates, so that tests/test_error_messages.py can check that every
one has a translation in every language, with the same slots.

What is read: the message given to every raise (or call) of a *sink* below; a message held in a
variable is followed to what the variable is assigned in the same function, to the texts
given for it where it is a parameter, to a module's constant, or to what the function that made
it returns; the parts interpolated into a message (``{what}``, ``{describe_counts(allowed)}``)
are followed the same way and their texts are templates too (they are translated on their own
when a message is, server/messages/translate.py). Texts of nothing but slots and punctuation
have nothing to translate and are left out.

Run ``python tests/message_sources.py LANG`` to print the templates that LANG's catalogue lacks,
as JSON to fill in.
"""
from __future__ import annotations

import ast
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from companion.server.messages.translate import shown_as_written

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"

# Calls whose message reaches a client: the exception classes the server turns into 4xx, and
# the helpers that build them. The value: which positional argument holds the message (-1: the
# last), and the keyword that may hold it instead.
SINKS = {
    "IllegalMove": (0, "reason"),        # the rules' refusal (409; 422 for a new game's settings)
    "BeamsDisagree": (0, None),          # a drop the exit beam contradicts (409)
    "Forbidden": (0, None),              # a seat acting for another (403)
    "NotOffered": (0, None),             # estimates a game does not make (404)
    "HTTPException": (1, "detail"),      # the server's own refusals
    "_refuse": (-1, None),               # the Guard's and BodyLimit's answers (400, 403, 408, 413)
    "JSONDecodeError": (0, None),        # a body that is not JSON the server takes (422 json_invalid)
    "Phase": (1, "waiting"),             # what a phase waits for: "it is not X's turn; the game waits for ..."
    "SealedBid": (0, "what"),            # what a sealed bid decides: "the sealed {self.what}s"
    "BoardCalibrationError": (0, None),  # the board calibration's refusals (422 on the calibration page)
    "PhotoRefused": (0, None),           # a calibration photo that cannot be taken (the calibrations' errors carry it)
    "BadAnswer": (0, None),              # an answer to the board camera's proposal it cannot take (422)
    "SimBoardError": (0, None),          # the simulated board's hands refused (409, 422)
}
METHOD_SINKS = {"fail": (0, None)}       # TOKYO METRO's Taking.fail(reason) -> IllegalMove
# ValueError reaches a client from a pydantic validator (a 422, or a game's options refused):
# the modules that hold such validators. Elsewhere a ValueError is the code's own complaint.
VALUE_ERRORS = ("rules/games/", "rules/metro/options.py", "rules/options.py", "server/requests.py")
# A BrokenGame's message (409) and a Busy one (429) are built in their constructors.
CONSTRUCTED = ("table/errors.py", "server/heavy.py")
# Words the server and its frameworks say that no source of ours holds: Starlette's default
# details and the JSON error FastAPI answers a body it cannot parse.
FRAMEWORK = ("Not Found", "Method Not Allowed", "There was an error parsing the body")

SLOT = re.compile(r"\{([^{}]+)\}")
LETTERS = re.compile(r"[A-Za-z]{2}")


@dataclass
class Found:
    templates: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))  # template -> where

    def add(self, template: str, where: str) -> None:
        if LETTERS.search(SLOT.sub("", template.replace("{{", "").replace("}}", ""))):
            self.templates[template].append(where)


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def slot_name(value: ast.FormattedValue) -> str:
    """A slot's name: the expression as written, with its conversion and format (``x!r``, ``x:.0f``)."""
    name = ast.unparse(value.value)
    if value.conversion != -1:
        name += "!" + chr(value.conversion)
    if value.format_spec is not None:
        name += ":" + "".join(p.value for p in value.format_spec.values if isinstance(p, ast.Constant))
    return name.replace("{", "(").replace("}", ")")   # a slot's name holds no brace (a nested f-string's)


class Index:
    """Every module's tree, its functions by name, its module-level assignments by name."""

    def __init__(self, root: Path = PACKAGE):
        self.modules: dict[Path, ast.Module] = {}
        self.functions: dict[str, list[tuple[Path, ast.FunctionDef]]] = defaultdict(list)
        self.constants: dict[str, list[tuple[Path, ast.expr]]] = defaultdict(list)
        self.parents: dict[ast.AST, ast.AST] = {}
        self.calls: dict[str, list[tuple[Path, ast.Call]]] = defaultdict(list)
        for path in sorted(root.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            self.modules[path] = tree
            for node in ast.walk(tree):
                for child in ast.iter_child_nodes(node):
                    self.parents[child] = node
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.functions[node.name].append((path, node))
                elif isinstance(node, ast.Call) and _called(node):
                    self.calls[_called(node)].append((path, node))
            for node in tree.body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    self.constants[node.targets[0].id].append((path, node.value))

    def function_of(self, node: ast.AST) -> ast.FunctionDef | None:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return node
        return None

    def calls_of(self, name: str) -> list[tuple[Path, ast.Call]]:
        return self.calls.get(name, [])


def _called(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


class Reader:
    """Follows a message expression to the texts it can be."""

    def __init__(self, index: Index, found: Found):
        self.index, self.found = index, found
        self.seen: set[tuple[int, str]] = set()
        self.named_functions = False   # whether a bare function name stands for what it returns

    def texts(self, expr: ast.AST | None, path: Path, depth: int = 0) -> list[str]:
        """The templates ``expr`` can be (its slots' texts are added to ``found`` on the way)."""
        if expr is None or depth > 6:
            return []
        where = f"{path.relative_to(ROOT)}:{getattr(expr, 'lineno', 0)}"
        if isinstance(expr, ast.Constant):
            return [_escape(expr.value)] if isinstance(expr.value, str) else []
        if isinstance(expr, ast.JoinedStr):
            parts = []
            for value in expr.values:
                if isinstance(value, ast.Constant):
                    parts.append(_escape(value.value))
                else:
                    name = slot_name(value)
                    parts.append("{" + name + "}")
                    if not shown_as_written(name):
                        for text in self.texts(value.value, path, depth + 1):  # what a slot can hold
                            self.found.add(text, where)
            return ["".join(parts)]
        if isinstance(expr, ast.IfExp):
            return self.texts(expr.body, path, depth + 1) + self.texts(expr.orelse, path, depth + 1)
        if isinstance(expr, ast.BoolOp):
            return [t for v in expr.values for t in self.texts(v, path, depth + 1)]
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            left, right = self.texts(expr.left, path, depth + 1), self.texts(expr.right, path, depth + 1)
            return [a + b for a in left for b in right]
        if isinstance(expr, ast.Name):
            return self._name(expr, path, depth)
        if isinstance(expr, ast.Call):
            if isinstance(expr.func, ast.Attribute) and isinstance(expr.func.value, ast.Constant):
                return []   # ", ".join(...): ids and names, not words
            return self._returns(_called(expr), depth)
        if isinstance(expr, ast.Lambda):
            return self.texts(expr.body, path, depth + 1)
        if isinstance(expr, ast.Attribute) and self.named_functions:   # a phase's waiting: a function
            return self._returns(expr.attr, depth)
        return []

    def _name(self, expr: ast.Name, path: Path, depth: int) -> list[str]:
        key = (id(expr), "name")
        if key in self.seen:
            return []
        self.seen.add(key)
        function = self.index.function_of(expr)
        out: list[str] = []
        # a closure's free name (a route handler using its maker's parameter): the enclosing function's
        while function is not None and not _binds(function, expr.id):
            function = self.index.function_of(function)
        if function is not None:
            for node in ast.walk(function):
                named = isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id
                                                             for t in node.targets)
                if named:
                    out += self.texts(node.value, path, depth + 1)
                elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and isinstance(node.target, ast.Name) \
                        and node.target.id == expr.id and node.value is not None:
                    out += self.texts(node.value, path, depth + 1)
            params = [a.arg for a in function.args.posonlyargs + function.args.args + function.args.kwonlyargs]
            if expr.id in params:
                out += self._arguments(function, params.index(expr.id), expr.id, depth)
                return out
        if not out:
            for where, value in self.index.constants.get(expr.id, ()):
                out += self.texts(value, where, depth + 1)
        return out or (self._returns(expr.id, depth) if self.named_functions else [])

    def _arguments(self, function: ast.FunctionDef, position: int, name: str, depth: int,
                   handed_on: bool = False) -> list[str]:
        """What the callers of ``function`` give for its parameter ``name`` (at ``position``): a
        text, or (once) the same parameter of the caller, handed on (host_of's ``what`` to
        require_host's)."""
        out: list[str] = []
        method = bool(function.args.args) and function.args.args[0].arg in ("self", "cls")
        called, by_attribute = function.name, method
        if called == "__init__":   # a constructor is called by its class's name
            called, by_attribute = self.index.parents[function].name, None
        for path, call in self.index.calls_of(called):
            if by_attribute is not None and by_attribute != isinstance(call.func, ast.Attribute):
                continue   # board.py's fail(where, reason) is not Taking.fail(reason)
            i = position - (1 if method else 0)
            given = [k.value for k in call.keywords if k.arg == name]
            if not given and 0 <= i < len(call.args) and not isinstance(call.args[i], ast.Starred):
                given = [call.args[i]]
            for arg in given:   # texts given as they are, or handed on from the caller's own caller
                if isinstance(arg, (ast.Constant, ast.JoinedStr, ast.IfExp)):
                    out += self.texts(arg, path, depth + 1)
                elif isinstance(arg, ast.Name) and arg.id == name and not handed_on:
                    caller = self.index.function_of(call)
                    params = [a.arg for a in caller.args.posonlyargs + caller.args.args] if caller else []
                    if arg.id in params:
                        out += self._arguments(caller, params.index(arg.id), arg.id, depth + 1, True)
        return out

    def _returns(self, name: str | None, depth: int) -> list[str]:
        if name is None or ("returns", name) in self.seen:
            return []
        self.seen.add(("returns", name))
        out: list[str] = []
        for path, function in self.index.functions.get(name, ()):
            for node in ast.walk(function):
                if isinstance(node, ast.Return) and self.index.function_of(node) is function:
                    out += self.texts(node.value, path, depth + 1)
        return out


def _binds(function: ast.FunctionDef, name: str) -> bool:
    """Whether ``name`` is a parameter of ``function`` or assigned in it."""
    args = function.args
    if name in [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]:
        return True
    return any(isinstance(t, ast.Name) and t.id == name and isinstance(t.ctx, ast.Store) for t in ast.walk(function))


def _message_arg(call: ast.Call, position: int, keyword: str | None) -> ast.expr | None:
    for k in call.keywords:
        if keyword and k.arg == keyword:
            return k.value
    args = [a for a in call.args if not isinstance(a, ast.Starred)]
    if not args:
        return None
    if position == -1:
        return args[-1]
    return args[position] if position < len(args) else None


def _sink(call: ast.Call, rel: str) -> tuple[int, str | None] | None:
    name = _called(call)
    if name == "_refuse" and not rel.startswith("server/"):
        return None   # the store's refusals stop `companion serve` at start; no client sees them
    if name in SINKS:
        return SINKS[name]
    if isinstance(call.func, ast.Attribute) and name in METHOD_SINKS:
        return METHOD_SINKS[name]
    if name == "ValueError" and rel.startswith(VALUE_ERRORS):
        return 0, None
    if name == "__init__" and rel in CONSTRUCTED:
        return 0, None
    return None


@cache
def templates() -> dict[str, tuple[str, ...]]:
    """Every English template that can reach a client, and where each is written."""
    index = Index()
    found = Found()
    reader = Reader(index, found)
    for path, tree in index.modules.items():
        rel = str(path.relative_to(PACKAGE))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            sink = _sink(node, rel)
            if sink is None:
                continue
            reader.named_functions = _called(node) == "Phase"
            for text in reader.texts(_message_arg(node, *sink), path):
                found.add(text, f"{path.relative_to(ROOT)}:{node.lineno}")
    for text in FRAMEWORK:
        found.add(text, "starlette/fastapi")
    return {t: tuple(dict.fromkeys(w)) for t, w in sorted(found.templates.items())}


if __name__ == "__main__":
    lang = sys.argv[1] if len(sys.argv) > 1 else "de"
    from companion.server.messages.translate import load_catalogue
    have = load_catalogue(lang)["messages"]
    missing = {t: "" for t in templates() if t not in have}
    json.dump(missing, sys.stdout, ensure_ascii=False, indent=2)
    print()
