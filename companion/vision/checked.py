"""The rules' readings with a second opinion (issue 26, item 3): ``identify(..., scorer=
"checked")`` asks the learned feature scorer (learned.py), ``scorer="checked-pixels"`` asks a
network that reads the piece's pixels alone (``pixel_scorer`` with the model
``models/drink_pixels_alone.npz``).

The pieces, their names and their confidences stay the rules'; only their sureness can fall.
A sure reading stays sure when the second opinion's top name is the rules' name, or when it
gives the rules' name at least the probability ``agree`` (the pixels' check: chosen on
held-out training-family tables by tools/choose_pixel_check.py and kept in the model's file);
otherwise the reading is kept but unsure, asked, with the other name in its ``_why`` (the
table's question then offers the drinks that could have come out).

Why two checkers. The learned feature scorer takes the rules' own reading among its inputs
(and the same measured features the rules weigh): on looks the rules were not tuned on it
mostly agrees with their mistakes and caught a fifth of them (docs/performance.md, "Vision:
the rules checked by the learned scorer"). The pixel network alone sees neither the rules'
name nor their sureness, nor the features they weigh: the piece's crop relit against the
tray, its colours against the set's six plastics, its blur and size against the set's
drinks, whether the second look fitted it. Its mistakes are its own, so where it disagrees
with the rules the rules are worth asking.

Phantoms (issue 26): the second look (fit.py) lays calibrated outlines over pixels, and in a
shadow band or over a dark tray it can lay one where there is no drink, named at 0.99. The pixel
network was trained with "no single drink" as a 37th answer (the pieces of the training tables
that lay on no drink); the check's guard (``NoDrink``, its bar in the model's settings) makes a
sure reading unsure where the network gives that answer at least the bar, for the fitted
readings only or for all, as the held-out tables chose.

``checked-set`` (``check_set``) is the same check with another network, trained with the set's
calibrated sizes among its side numbers (``drink_crops.set_sizes``): most of the rules' sure
mistakes on held-out training-family tables are neighbouring heights (short and stubby can,
square and not-tallest bottle), and a set whose shapes are each a few per cent off the
catalogue's can only be told apart with its own sizes.

How sureness is decided, then: a rules' reading that is not sure stays unsure; a sure one is
asked of the network and stays sure under these hand-made rules (its top name is the rules',
or it gives that name at least ``agree``; "no single drink" under the guard's bar). The learned
sureness (``scorer="checked-sure"``, sure.py) keeps the guard and replaces the rest: a logistic
model over the network's probabilities, the rules' own margins and where the piece's size lies
between the set's calibrated shapes gives the probability that the rules' name is right, and a
reading stays sure from its bar up (chosen on training-family tables so that 99.7 % of the sure
readings there were right).

What the check leaves unsure, the set network may name (``Naming``, in its settings: chosen by
tools/choose_network_names.py): a reading the rules doubted, or the check asked about, becomes
the network's top drink, sure, where the network gives that drink at least the bar (0.99 for the
committed network, twice as wide as the ones before it). On the 61 training-family tables it was
chosen on (none of them trained on) the 216 readings it named were all right, on the TEST tables
98 of 100; the one-drink-one-reading check still doubts a repeat after. A reading the rules doubted only between two drinks (classify's runner-up, kept
as ``_second``) is named from a lower bar (``agreeing``, chosen by the same tool) where the
network names one of those two: two readers that fail apart, pointing at the same pair.

Each drink once (``Naming.once``, issue 26, item 4): the set holds each drink once, so a drink the
frame reads surely elsewhere is not what a doubtful piece shows. What the naming left unsure is
named again from the network's probabilities without those drinks (``name_once``): on fresh
evaluation tables a few more drinks right at three difficulties and no sure mistake more
(docs/performance.md, "Each drink once in a frame").

A reading the checker cannot judge stays as the rules made it: one without measured features,
and (unless the checker's settings say it judges them) one the second look fitted: the learned
scorer sees the features of the piece the outline replaced (two drinks of one colour as one);
the pixel network sees the placed outline's own crop, and ``check_fitted`` in its settings says
whether that measured better on the held-out tables.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from ..drinks import COLOURS, SHAPES

ALONE_PATH = Path(__file__).with_name("models") / "drink_pixels_alone.npz"
SET_PATH = Path(__file__).with_name("models") / "drink_pixels_set.npz"
AGREED = "one of the rules' two"     # in a reading's _named: named under Naming's lower bar, ``agreeing``
COLOUR_NAMES = [c.value for c in COLOURS]
SHAPE_NAMES = [s.value for s in SHAPES]


def drink_index(d: dict) -> int | None:
    """The row (colour-major, as the scorers' 36) of a reading's name; None for a name that
    is no drink."""
    try:
        return COLOUR_NAMES.index(d["color"]) * len(SHAPES) + SHAPE_NAMES.index(d["shape"])
    except ValueError:
        return None


def drink_name(row: int) -> str:
    ci, si = divmod(int(row), len(SHAPES))
    return f"{COLOURS[ci].value}-{SHAPES[si].value}"


def check(readings: list[dict], an, profile, opinion, label: str, agree: float | None = None,
          judge_fitted: bool = False, no_drink: "NoDrink | None" = None,
          naming: "Naming | None" = None) -> list[dict]:
    """The rules' sure readings of a frame asked of a second opinion, in place.

    ``opinion(todo, an, profile)``: probabilities (n, 37: the 36 drinks, then "no single
    drink") for the readings ``todo``. A sure reading stays sure where the opinion's most
    likely drink is the rules' name, or (``agree``) gives the rules' name at least that
    probability; otherwise it is made unsure and its ``_why`` says "<label>: <name>?".
    ``no_drink``: where the opinion gives "no single drink" at least its bar (for the readings
    it judges: the fitted ones, or all), the reading is made unsure too ("<label>: no drink?").
    A drink the table taught the camera (``taught_drinks``) is named as the rules name it: the
    host said what it looks like here, which the second opinion, trained on renders, never saw
    (the guard still judges it).
    ``naming``: then the readings left unsure (by the rules, or by this check: ``Naming.pool``)
    are named by the opinion where it is sure enough (``Naming.name``)."""
    judged = [d for d in readings
              if "_f" in d and (judge_fitted or not d.get("_fitted")) and drink_index(d) is not None]
    todo = [d for d in judged if not d["unsure"]]
    doubted = [d for d in judged if d["unsure"]] if naming is not None and naming.names_doubted else []
    if not todo and not doubted:
        return readings
    p = np.asarray(opinion(todo + doubted, an, profile))
    n = len(COLOURS) * len(SHAPES)
    taught = taught_drinks(profile)
    asked = []
    for d, row in zip(todo, p):
        own, best = drink_index(d), int(np.argmax(row[:n]))
        if no_drink is not None and no_drink.doubts(d, row):
            ask(d, f"{label}: no drink?")
        elif not (best == own or (agree is not None and row[own] >= agree) or drink_name(own) in taught):
            ask(d, f"{label}: {drink_name(best)}?")
            asked.append((d, row))
    if naming is not None:
        left = []   # (reading, row, doubted by the rules) still unsure after naming
        for d, row in (asked if naming.names_asked else []):
            if not naming.name(d, row, taught, label):
                left.append((d, row, False))
        for d, row in zip(doubted, p[len(todo):]):
            if not naming.name(d, row, taught, label, doubted=True):
                left.append((d, row, True))
        if naming.once:
            name_once(readings, left, naming, taught, label)
    return readings


def name_once(readings: list[dict], left: list[tuple[dict, np.ndarray, bool]], naming: "Naming",
              taught: set[str], label: str) -> None:
    """Each drink once (issue 26, item 4): the set holds every drink once, so a drink read surely
    elsewhere in the frame is not what an unsure reading shows. Each reading of ``left`` (reading,
    the opinion's row, whether the rules doubted it) is named as ``naming`` would, from its row
    without the drinks the frame's sure readings name (renormalised); a reading so named takes its
    drink too, and the rest are tried again, until none more is named.

    >>> sure = {"color": "red", "shape": "stubby_can", "confidence": 0.99, "unsure": False}
    >>> torn = {"color": "red", "shape": "stubby_can", "confidence": 0.5, "unsure": True}
    >>> row = np.zeros(37); row[24] = 0.5; row[25] = 0.495; row[36] = 0.005   # red stubby or short can
    >>> name_once([sure, torn], [(torn, row, True)], Naming(0.99), set(), "pixels")
    >>> torn["shape"], torn["unsure"], torn["confidence"]
    ('short_can', False, 0.99)
    """
    left = list(left)
    while left:
        taken = [i for i in (drink_index(d) for d in readings if not d["unsure"]) if i is not None]
        for k, (d, row, doubted) in enumerate(left):
            rest = np.asarray(row, np.float64).copy()
            rest[taken] = 0.0
            total = float(rest.sum())
            if total > 0.0 and naming.name(d, rest / total, taught, f"{label}, each drink once", doubted=doubted):
                del left[k]
                break             # its drink is taken now: the others are judged again
        else:
            return


def ask(d: dict, why: str) -> None:
    """A reading made unsure (asked), ``why`` added to the reasons it already has."""
    d["unsure"] = True
    d["_why"] = "; ".join(filter(None, [d.get("_why", ""), why]))


def taught_drinks(profile) -> set[str]:
    """The drinks ("colour-shape") whose looks the table taught the camera (vision/taught.py:
    poses marked ``taught`` in the profile's drink records)."""
    drinks = getattr(profile, "drinks", None) or {}
    return {drink for drink, rec in drinks.items() if any(p.get("taught") for p in rec.get("poses", ()))}


@dataclass(frozen=True)
class NoDrink:
    """The check's guard against phantoms: a sure reading the second opinion finds at least
    ``bar`` likely to be no single drink (a shadow band, a dark patch of tray the second look
    laid an outline over) is made unsure; ``fitted_only``: only the second look's readings are
    judged so (their outline was laid over pixels, not cut out of a drink's)."""
    bar: float
    fitted_only: bool = True

    def judges(self, d: dict) -> bool:
        return bool(d.get("_fitted")) or not self.fitted_only

    def doubts(self, d: dict, row: np.ndarray) -> bool:
        """Whether the opinion ``row`` (36 drinks, then "no single drink") makes reading ``d`` a
        phantom to ask about."""
        n = len(COLOURS) * len(SHAPES)
        return self.judges(d) and row.shape[0] > n and row[n] >= self.bar


@dataclass(frozen=True)
class Naming:
    """The network's name for a reading left unsure, where it is sure enough (issue 26: most of
    what the rules doubt is a drink the network has seen plainly). ``pool``: which unsure
    readings it names: "doubted" (the rules left them unsure), "asked" (the check made them
    unsure: the network names them otherwise) or "both". A reading is named when the network's
    most likely drink has at least ``bar`` of the 37 outputs ("no single drink" counts against
    it), and neither that drink nor the rules' is one the table taught. The named reading is
    sure, its confidence the network's; ``_named`` (and its ``_why``, which the tray's log keeps)
    says what the rules read. Chosen on training-family tables by tools/choose_network_names.py
    and kept in the model's settings.

    >>> row = np.zeros(37); row[19] = 0.995; row[36] = 0.005
    >>> d = {"color": "white", "shape": "tall_can", "confidence": 0.5, "unsure": True, "_why": "far"}
    >>> Naming(0.99, "doubted").name(d, row, set(), "pixels")
    True
    >>> d["color"], d["shape"], d["confidence"], d["unsure"], d["_named"]
    ('blue', 'short_can', 0.995, False, 'named by pixels at 0.995; the rules: white-tall_can at 0.5 (far)')

    ``agreeing``: a lower bar for a reading the rules doubted only between two drinks (its
    ``_second``, classify's runner-up) where the network names one of those two. Two readers
    that fail apart both pointing at one drink of two is more than the network alone; the bar
    is chosen on training-family tables as the main one is.

    >>> d = {"color": "white", "shape": "short_can", "confidence": 0.6, "unsure": True, "_second": "white-stubby_can"}
    >>> third = np.zeros(37); third[8] = 0.95; third[36] = 0.05          # white-tall_can: a third drink
    >>> Naming(0.999, "both", agreeing=0.9).name(d, third, set(), "pixels", doubted=True)
    False
    >>> one = np.zeros(37); one[6] = 0.95; one[36] = 0.05                # white-stubby_can: the runner-up
    >>> Naming(0.999, "both", agreeing=0.9).name(d, one, set(), "pixels", doubted=True), d["shape"]
    (True, 'stubby_can')
    """
    bar: float
    pool: str = "both"
    agreeing: float | None = None
    once: bool = False      # then the readings left unsure are named again, each drink once (``name_once``)

    POOLS = ("doubted", "asked", "both")

    def __post_init__(self):
        if self.pool not in self.POOLS:
            raise ValueError(f"naming pool must be one of {', '.join(self.POOLS)}, not {self.pool!r}")

    @property
    def names_doubted(self) -> bool:
        return self.pool in ("doubted", "both") or self.agreeing is not None

    @property
    def names_asked(self) -> bool:
        return self.pool in ("asked", "both")

    def name(self, d: dict, row: np.ndarray, taught: set[str], label: str, doubted: bool = False) -> bool:
        """Name the unsure reading ``d`` by ``row`` (36 drinks, then "no single drink") when the
        network is sure enough; ``doubted``: the rules left it unsure (not the check). Returns
        whether it did."""
        n = len(COLOURS) * len(SHAPES)
        best = int(np.argmax(row[:n]))
        rules = f"{d['color']}-{d['shape']}"
        # a doubted reading outside the pool is named only from the lower bar, where the two agree
        in_pool = self.pool in ("doubted", "both") if doubted else True
        bar = self.bar if in_pool else float("inf")
        agrees = doubted and self.agreeing is not None and d.get("_second") is not None \
            and drink_name(best) in (rules, d["_second"])
        if agrees:
            bar = min(bar, self.agreeing)
        if float(row[best]) < bar or drink_name(best) in taught or rules in taught:
            return False
        d["_named"] = f"named by {label} at {float(row[best]):.3f}" \
            + (f", {AGREED} ({rules}, {d['_second']})" if agrees and float(row[best]) < self.bar else "") \
            + f"; the rules: {rules} at {d['confidence']:.3g}" + (f" ({d['_why']})" if d.get("_why") else "")
        ci, si = divmod(best, len(SHAPES))
        d["color"], d["shape"] = COLOURS[ci].value, SHAPES[si].value
        d["confidence"] = round(float(row[best]), 4)
        d["unsure"] = False
        d["_why"] = d["_named"]       # the tray's log keeps it (the dashboard shows a sure reading's why nowhere)
        return True


def naming_settings(model) -> Naming | None:
    """The naming a pixel model's check settings carry (``check["name"]``: {"bar", "pool"[,
    "agreeing"]}, chosen by tools/choose_network_names.py; None: the unsure readings stay unsure)."""
    name = model.settings.get("check", {}).get("name")
    if not name:
        return None
    agreeing = name.get("agreeing")
    return Naming(float(name["bar"]), str(name.get("pool", "both")), None if agreeing is None else float(agreeing),
                  bool(name.get("once", False)))


def learned_opinion(todo: list[dict], an, profile, model=None) -> np.ndarray:
    """The learned feature scorer's probabilities (its inputs carry the rules' reading);
    ``model``: another than the committed one."""
    from .learned import inputs, scorer
    model = model or scorer()
    return model.probabilities(np.stack([inputs(d["_f"], profile, an.sharpness, d) for d in todo]))


def check_learned(readings: list[dict], an, profile, model=None) -> list[dict]:
    """``scorer="checked"``: the rules checked by the learned feature scorer (top name only)."""
    return check(readings, an, profile, lambda todo, an_, prof: learned_opinion(todo, an_, prof, model), "learned")


@cache
def alone_model(path: str = str(ALONE_PATH)):
    """The pixel network trained without the feature scorer's view (and so without the rules'
    reading): its settings carry the check's ``check_agree`` and ``check_fitted``."""
    from .pixel_scorer import pixel_model
    model = pixel_model(path)
    if model.features:
        raise ValueError(f"{path}: this network takes the feature scorer's view; the check needs one "
                         "that reads the pixels alone (tools/learn_drink_pixels.py --variant pixels)")
    return model


def pixel_check_settings(model) -> tuple[float | None, bool, bool]:
    """(agree, judge_fitted, mirror) of a pixel model's check (tools/choose_pixel_check.py
    writes them; a file without them: the top name only, fitted readings left to the rules,
    the crop read once)."""
    settings = model.settings.get("check", {})
    agree = settings.get("agree")
    return (None if agree is None else float(agree)), bool(settings.get("fitted", False)), \
        bool(settings.get("mirror", False))


def no_drink_settings(model) -> NoDrink | None:
    """The no-drink guard a pixel model's check settings carry (``check["no_drink"]``:
    {"bar", "fitted_only"}, chosen by tools/choose_pixel_check.py; None: no guard)."""
    guard = model.settings.get("check", {}).get("no_drink")
    if not guard:
        return None
    return NoDrink(float(guard["bar"]), bool(guard.get("fitted_only", True)))


def pixel_opinion(todo: list[dict], an, profile, model, mirror: bool = False, raw=None) -> np.ndarray:
    """The pixel network's probabilities (n, 37) for readings; with ``mirror`` the mean of the
    crop's and its mirror image's across the piece's axis (a drink mirrored is the same drink;
    the training mirrored half the crops), which costs the network twice (in one batch). ``raw``: the
    readings' raw crops when already cut (the training tool's cache)."""
    from .pixel_scorer import probabilities
    return probabilities(todo, an, profile, model, raw, mirror)


def check_pixels(readings: list[dict], an, profile, model=None) -> list[dict]:
    """``scorer="checked-pixels"``: the rules checked by the pixel network alone."""
    model = model or alone_model()
    agree, fitted, mirror = pixel_check_settings(model)
    return check(readings, an, profile, lambda todo, an_, prof: pixel_opinion(todo, an_, prof, model, mirror),
                 "pixels", agree=agree, judge_fitted=fitted, no_drink=no_drink_settings(model),
                 naming=naming_settings(model))


def check_set(readings: list[dict], an, profile, model=None) -> list[dict]:
    """``scorer="checked-set"``: the rules checked by the pixel network that also knows the
    set's calibrated sizes (``models/drink_pixels_set.npz``: trained with ``--set-sizes``), with
    its check's settings (and its guard against phantoms) as tools/choose_pixel_check.py chose
    them for it."""
    return check_pixels(readings, an, profile, model or alone_model(str(SET_PATH)))
