"""The rules checked by a second opinion (vision/checked.py, issue 26): the pixel network that
reads the pixels alone loads and takes nothing of the rules' reading; ``scorer="checked-pixels"``
keeps the rules' pieces and names, and a sure reading stays sure only where that network agrees;
an injected rules' mistake is caught."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from companion.sim.looks import FAMILIES
from companion.vision import checked, pixel_scorer
from companion.vision.drinks import SCORERS, identify, identify_analysis
from companion.vision.segment import analyse

from vision_support import benchmark_photo

SEED = 8003            # a development table no training saw (vision_support's cache)


def _rules_pieces(difficulty: str, skip: int = 0):
    profile, image, truth = benchmark_photo(None, SEED, skip, difficulty)
    an = analyse(image, profile)
    kept = {}
    identify_analysis(an, profile, lambda readings, _an, _p: kept.setdefault("pieces", copy.deepcopy(readings)))
    return profile, image, an, kept["pieces"], truth


def test_the_network_alone_loads_is_small_and_sees_no_rules():
    """Its side numbers are the pixel scorer's own three (blur, area, fitted): no feature
    scorer's view, so neither the rules' name nor their sureness; trained and fitted on tables
    of the training and development families other than the ones measured here; its check's
    settings were chosen on held-out training-family tables."""
    assert checked.ALONE_PATH.stat().st_size < 10_000_000
    model = checked.alone_model()
    assert not model.features and len(model.net.w["mean"]) == pixel_scorer.N_SIDE and "res" not in model.net.w
    settings = model.settings
    for family, first, last in settings["trained"]["tables"] + settings["trained"]["temperature_tables"]:
        assert family in FAMILIES and family != "eval" and not first <= SEED <= last
    check = settings["check"]
    assert check["agree"] is None or 0 < check["agree"] < 0.5
    assert all(fam == "train" for fam, _, _ in check["held_out_tables"])
    trained = {(fam, s) for fam, s, _ in settings["trained"]["tables"]}
    assert not any((fam, s) in trained for fam, first, last in check["held_out_tables"] for s in range(first, last + 1))
    assert "checked-pixels" in SCORERS


def test_an_injected_rules_mistake_is_asked_and_the_rest_follow_the_network():
    """A sure rules' reading renamed to the drink the network finds least likely (a mistake
    the rules could make on an unseen look) is made unsure, with the network's name in its
    why; every other reading is unsure exactly where the check's rule says (the network's top
    name, or its probability of the rules' name against ``agree``); names and places are the
    rules'. A check that does nothing fails the first assertion."""
    profile, _image, an, rules, _truth = _rules_pieces("hard")
    model = checked.alone_model()
    agree, fitted, mirror = checked.pixel_check_settings(model)
    judged = [i for i, d in enumerate(rules)
              if not d["unsure"] and "_f" in d and (fitted or not d.get("_fitted"))]
    assert len(judged) >= 4
    wrong = copy.deepcopy(rules)
    victim = wrong[judged[0]]
    p = checked.pixel_opinion([victim], an, profile, model, mirror)[0, :pixel_scorer.N_DRINKS]
    victim["color"], victim["shape"] = checked.drink_name(int(np.argmin(p))).split("-", 1)
    after = checked.check_pixels(copy.deepcopy(wrong), an, profile)
    assert after[judged[0]]["unsure"], "a sure reading the network finds least likely stayed sure"
    assert f"pixels: {checked.drink_name(int(np.argmax(p)))}?" in after[judged[0]]["_why"]
    probs = checked.pixel_opinion([wrong[i] for i in judged], an, profile, model, mirror)
    expected = {i: not (int(np.argmax(row[:36])) == checked.drink_index(wrong[i])
                        or (agree is not None and row[checked.drink_index(wrong[i])] >= agree))
                for i, row in zip(judged, probs)}
    for i, (before, got) in enumerate(zip(wrong, after)):
        assert (got["color"], got["shape"], got["x"], got["y"], got["confidence"]) == \
            (before["color"], before["shape"], before["x"], before["y"], before["confidence"])
        assert got["unsure"] == (expected[i] if i in expected else before["unsure"])


@pytest.mark.parametrize("difficulty,skip", [("separated", 0), ("touching", 1)])
def test_through_identify_no_drink_is_sure_that_the_rules_did_not_read_sure(difficulty, skip):
    """The whole frame: the rules' pieces, names and places; sure only where the rules were
    sure; and on a development table the network agrees with nearly all of them (at most one
    asked more than the rules asked)."""
    profile, image, _an, _rules, _truth = _rules_pieces(difficulty, skip)
    rules = identify(image, profile, scorer="rules")
    got = identify(image, profile, scorer="checked-pixels")
    assert [(d["x"], d["y"], d["color"], d["shape"]) for d in got] == [(d["x"], d["y"], d["color"], d["shape"]) for d in rules]
    assert all(g["unsure"] or not r["unsure"] for r, g in zip(rules, got))
    assert sum(g["unsure"] and not r["unsure"] for r, g in zip(rules, got)) <= 1


def _phantom_on_empty_tray(an, profile, like: dict) -> dict:
    """A reading as the second look makes one (``_fitted``, its outline's polygon as its piece,
    confidence 0.99) laid over plain tray: where the mask shows nothing within a drink's length."""
    import cv2
    from companion.vision.fit import _polygon_piece
    longest = float(profile.stats["max_length"])
    reach = int(longest * 0.7)
    free = cv2.erode((an.mask == 0).astype(np.uint8), np.ones((2 * reach + 1, 2 * reach + 1), np.uint8))
    ys, xs = np.nonzero(free)
    assert len(xs), "no stretch of plain tray in the photo"
    k = len(xs) // 2
    cx, cy = float(xs[k]), float(ys[k])
    f = like["_f"]
    ax = np.asarray(f.get("axis") or (1.0, 0.0), np.float64)
    across = np.array([-ax[1], ax[0]])
    length, width = (float(v) for v in profile.shape_model.means[like["shape"]][:2])
    corners = [np.array([cx, cy]) + 0.5 * (sl * length * ax + sw * width * across)
               for sl, sw in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    piece = _polygon_piece(np.array(corners), *an.mask.shape)
    scale = 1.0 / profile.scale
    return {"color": like["color"], "shape": like["shape"], "x": round((cx + 0.5) * scale - 0.5, 1),
            "y": round((cy + 0.5) * scale - 0.5, 1), "confidence": 0.99, "unsure": False, "_why": "outline fitted",
            "_f": {**f, "cx": cx, "cy": cy}, "_fitted": True, "_piece": piece}


def test_an_injected_phantom_outline_is_asked():
    """An outline the second look laid over plain tray (as it lays them over shadow bands:
    a phantom drink, read sure at 0.99 by the rules) is made unsure by the check, which says it
    sees no drink there; the real readings beside it keep the rules' sureness as before. A
    check that does nothing, or one that never judges the fitted readings, fails here."""
    profile, _image, an, rules, _truth = _rules_pieces("separated")
    like = next(d for d in rules if not d["unsure"] and not d.get("_fitted"))
    phantom = _phantom_on_empty_tray(an, profile, like)
    for check in (checked.check_pixels, checked.check_set):
        before = check(copy.deepcopy(rules), an, profile)
        after = check(copy.deepcopy(rules) + [copy.deepcopy(phantom)], an, profile)
        assert after[-1]["unsure"], "a phantom outline on plain tray stayed sure"
        assert "pixels:" in after[-1]["_why"]
        assert [d["unsure"] for d in after[:-1]] == [d["unsure"] for d in before]
    # checked-set's guard is what asks: its network finds no drink there
    assert "pixels: no drink?" in after[-1]["_why"]


def test_the_no_drink_guard_asks_where_no_single_drink_is_likely():
    """The guard's own rule, on an opinion given outright: the rules' name is the opinion's top
    drink, but "no single drink" is likelier than the guard's bar: unsure with the guard, sure
    without it; a guard of the fitted readings only leaves a segmented piece alone."""
    d = {"color": "black", "shape": "tall_can", "unsure": False, "_f": {}, "_fitted": True}
    row = np.full(37, 0.001)
    row[checked.drink_index(d)] = 0.3
    row[36] = 0.6

    def opinion(todo, _an, _profile):
        return np.repeat(row[None], len(todo), axis=0)
    assert not checked.check([dict(d)], None, None, opinion, "pixels", agree=0.03, judge_fitted=True)[0]["unsure"]
    got = checked.check([dict(d)], None, None, opinion, "pixels", agree=0.03, judge_fitted=True,
                        no_drink=checked.NoDrink(0.5))[0]
    assert got["unsure"] and got["_why"] == "pixels: no drink?"
    plain = {**d, "_fitted": False}
    assert not checked.check([plain], None, None, opinion, "pixels", judge_fitted=True,
                             no_drink=checked.NoDrink(0.5, fitted_only=True))[0]["unsure"]
    assert checked.check([dict(plain)], None, None, opinion, "pixels", judge_fitted=True,
                         no_drink=checked.NoDrink(0.5, fitted_only=False))[0]["unsure"]


def test_the_set_network_knows_the_sets_sizes_and_nothing_of_the_rules():
    """``checked-set``'s network: the pixel scorer's three side numbers and the set's calibrated
    sizes (each shape's length and width against the set's longest: the longest is 1), no
    feature scorer's view; trained and fitted on other tables than these, its check chosen on
    training-family tables it never trained on, with a guard against phantoms."""
    from companion.vision.drink_crops import SET_SIZES, set_sizes
    assert checked.SET_PATH.stat().st_size < 10_000_000
    model = checked.alone_model(str(checked.SET_PATH))
    assert model.set_sizes and not model.features and "res" not in model.net.w
    assert len(model.net.w["mean"]) == pixel_scorer.N_SIDE + SET_SIZES
    profile, *_ = _rules_pieces("separated")
    sizes = set_sizes(profile)
    assert sizes.shape == (SET_SIZES,) and sizes[:6].max() == pytest.approx(1.0) and (sizes > 0.1).all()
    settings = model.settings
    for family, first, last in settings["trained"]["tables"] + settings["trained"]["temperature_tables"]:
        assert family in FAMILIES and family != "eval" and not first <= SEED <= last
    check = settings["check"]
    assert all(fam == "train" for fam, _, _ in check["held_out_tables"])
    trained = {(fam, s) for fam, s, _ in settings["trained"]["tables"]}
    assert not any((fam, s) in trained for fam, first, last in check["held_out_tables"] for s in range(first, last + 1))
    assert checked.no_drink_settings(model) is not None and "checked-set" in SCORERS


def test_the_sureness_was_fitted_on_tables_the_set_network_never_saw():
    """``checked-sure`` weighs the set network's probabilities: fitted on tables that network
    trained on, it would learn how sure the network is on pieces it knows. Each model file lists
    its tables; a set network trained on the sureness's tables needs the sureness fitted anew
    (tools/choose_sureness.py on tables of its own)."""
    import json
    from companion.vision import sure
    set_trained = {(fam, s) for fam, first, last in checked.alone_model(str(checked.SET_PATH)).settings["trained"]["tables"]
                   for s in range(first, last + 1)}
    fitted_on = json.loads(sure.SURE_PATH.read_text())["tables"]
    assert fitted_on and not any((fam, s) in set_trained for fam, first, last in fitted_on
                                 for s in range(first, last + 1))


@pytest.mark.parametrize("scorer", ["checked-set", "checked-sure"])
def test_a_checked_scorer_keeps_the_rules_pieces_and_only_asks_more(scorer):
    """Through identify: the rules' pieces and places; their names and sure only where the rules
    were sure (on this development table nearly all the rules' sure readings stay sure), except a
    reading the network named (checked-set's naming: sure at the naming's bar or more, the rules'
    reading in its why)."""
    profile, image, *_ = _rules_pieces("touching", 1)
    rules = identify(image, profile, scorer="rules", debug=True)
    got = identify(image, profile, scorer=scorer, debug=True)
    assert [(d["x"], d["y"]) for d in got] == [(d["x"], d["y"]) for d in rules]
    naming = checked.naming_settings(checked.alone_model(str(checked.SET_PATH)))
    for r, g in zip(rules, got):
        if g.get("_why", "").startswith("named by pixels"):
            assert scorer == "checked-set" and not g["unsure"] and g["confidence"] >= naming.bar
            assert f"the rules: {r['color']}-{r['shape']} at" in g["_why"]
        else:
            assert (g["color"], g["shape"]) == (r["color"], r["shape"]) and (g["unsure"] or not r["unsure"])
    assert sum(g["unsure"] and not r["unsure"] for r, g in zip(rules, got)) <= 1


def test_a_drink_the_table_taught_is_named_as_the_rules_name_it():
    """A correction taught the camera a drink's look here (a pose marked ``taught``): the check
    no longer asks where the network names that drink otherwise (it never saw the look), but
    its guard against phantoms still judges it; a drink not taught is asked as before."""
    from types import SimpleNamespace
    profile = SimpleNamespace(drinks={"purple-tall_can": {"poses": [{"taught": True}]},
                                      "blue-tall_can": {"poses": [{}]}})
    assert checked.taught_drinks(profile) == {"purple-tall_can"}
    row = np.full(37, 0.001)
    row[checked.drink_index({"color": "blue", "shape": "tall_can"})] = 0.9

    def opinion(todo, _an, _profile):
        return np.repeat(row[None], len(todo), axis=0)
    taught = {"color": "purple", "shape": "tall_can", "unsure": False, "_f": {}}
    other = {"color": "purple", "shape": "short_can", "unsure": False, "_f": {}}
    got = checked.check([dict(taught), dict(other)], None, profile, opinion, "pixels")
    assert [d["unsure"] for d in got] == [False, True]
    row[36] = 0.5
    got = checked.check([dict(taught)], None, profile, opinion, "pixels", no_drink=checked.NoDrink(0.05, False))
    assert got[0]["unsure"] and got[0]["_why"] == "pixels: no drink?"


def _opinion_of(rows: dict[str, np.ndarray]):
    """An opinion that gives each reading (by its ``id`` key) its own row."""
    def opinion(todo, _an, _profile):
        return np.stack([rows[d["id"]] for d in todo])
    return opinion


def _row(drink: str, p: float, no_drink: float = 0.0) -> np.ndarray:
    colour, shape = drink.split("-", 1)
    row = np.full(37, (1.0 - p - no_drink) / 35)
    row[checked.drink_index({"color": colour, "shape": shape})] = p
    row[36] = no_drink
    return row


@pytest.mark.parametrize("pool", checked.Naming.POOLS)
def test_the_network_names_what_is_left_unsure_only_where_it_is_sure(pool):
    """``Naming``: a reading the rules left unsure (``doubted``) or the check asked about
    (``asked``) is named by the network where its top drink has at least the bar, sure, with the
    network's probability as its confidence and the rules' reading kept in ``_named``; below the
    bar, a phantom the guard doubts, a drink the table taught and a reading without measured
    features stay as they were; a sure reading the network backs is untouched."""
    from types import SimpleNamespace
    profile = SimpleNamespace(drinks={"red-stubby_can": {"poses": [{"taught": True}]},
                                      "black-tall_can": {"poses": [{"taught": True}]}})
    rows = {"doubted": _row("blue-short_can", 0.995), "weak": _row("blue-short_can", 0.95),
            "asked": _row("white-square_bottle", 0.996), "backed": _row("mint-tall_can", 0.999),
            "phantom": _row("black-stubby_can", 0.5, no_drink=0.49), "taught": _row("red-stubby_can", 0.999),
            "taught_rules": _row("blue-tall_can", 0.999), "bare": _row("red-tall_can", 0.999)}
    readings = [
        {"id": "doubted", "color": "purple", "shape": "short_can", "confidence": 0.55, "unsure": True, "_f": {}},
        {"id": "weak", "color": "purple", "shape": "short_can", "confidence": 0.55, "unsure": True, "_f": {}},
        {"id": "asked", "color": "mint", "shape": "square_bottle", "confidence": 0.97, "unsure": False, "_f": {}},
        {"id": "backed", "color": "mint", "shape": "tall_can", "confidence": 0.98, "unsure": False, "_f": {}},
        {"id": "phantom", "color": "black", "shape": "stubby_can", "confidence": 0.99, "unsure": False,
         "_f": {}, "_fitted": True},
        {"id": "taught", "color": "red", "shape": "short_can", "confidence": 0.4, "unsure": True, "_f": {}},
        {"id": "taught_rules", "color": "black", "shape": "tall_can", "confidence": 0.4, "unsure": True, "_f": {}},
        {"id": "bare", "color": "red", "shape": "tall_can", "confidence": 0.3, "unsure": True},
    ]
    got = {d["id"]: d for d in checked.check(copy.deepcopy(readings), None, profile, _opinion_of(rows), "pixels",
                                             judge_fitted=True, no_drink=checked.NoDrink(0.3, True),
                                             naming=checked.Naming(0.99, pool))}
    named = {k for k, d in got.items() if "_named" in d}
    assert named == {"both": {"doubted", "asked"}, "doubted": {"doubted"}, "asked": {"asked"}}[pool]
    for k in named:
        assert not got[k]["unsure"] and got[k]["confidence"] == pytest.approx(rows[k].max(), abs=1e-4)
        assert f"{got[k]['color']}-{got[k]['shape']}" == checked.drink_name(int(np.argmax(rows[k][:36])))
    if "doubted" in named:
        assert got["doubted"]["_why"] == "named by pixels at 0.995; the rules: purple-short_can at 0.55"
    if "asked" not in named:
        assert got["asked"]["unsure"] and got["asked"]["_why"] == "pixels: white-square_bottle?"
    assert got["weak"]["unsure"] and (got["weak"]["color"], got["weak"]["shape"]) == ("purple", "short_can")
    assert not got["backed"]["unsure"] and got["backed"]["confidence"] == 0.98 and "_named" not in got["backed"]
    assert got["phantom"]["unsure"] and got["phantom"]["_why"] == "pixels: no drink?"
    assert got["taught"]["unsure"] and got["taught"]["shape"] == "short_can"
    assert got["taught_rules"]["unsure"] and got["taught_rules"]["color"] == "black"
    assert got["bare"]["unsure"] and "_named" not in got["bare"]


@pytest.mark.parametrize("pool", checked.Naming.POOLS)
def test_one_of_the_rules_two_is_named_from_the_lower_bar_only_where_the_rules_doubted_it(pool):
    """``Naming.agreeing``: a reading the rules doubted only between two drinks (``_second``,
    classify's runner-up) is named from the lower bar where the network names one of the two;
    a third drink, a reading doubted for its outline (no ``_second``) and a reading the check
    asked about need the main bar, whatever the pool."""
    rows = {"runner_up": _row("purple-stubby_can", 0.95), "own": _row("purple-short_can", 0.95),
            "third": _row("blue-short_can", 0.95), "outline": _row("purple-short_can", 0.95),
            "asked": _row("purple-stubby_can", 0.95), "low": _row("purple-stubby_can", 0.85)}
    doubt = {"color": "purple", "shape": "short_can", "confidence": 0.55, "unsure": True, "_f": {},
             "_second": "purple-stubby_can"}
    readings = [{**doubt, "id": k} for k in ("runner_up", "own", "third", "low")] + [
        {**doubt, "id": "outline", "_second": None},
        {**doubt, "id": "asked", "unsure": False, "confidence": 0.97}]
    got = {d["id"]: d for d in checked.check(copy.deepcopy(readings), None, None, _opinion_of(rows), "pixels",
                                             naming=checked.Naming(0.99, pool, agreeing=0.9))}
    assert {k for k, d in got.items() if not d["unsure"]} == {"runner_up", "own"}
    assert got["runner_up"]["shape"] == "stubby_can" and got["runner_up"]["confidence"] == pytest.approx(0.95)
    assert got["runner_up"]["_why"].startswith(f"named by pixels at 0.950, {checked.AGREED} "
                                               "(purple-short_can, purple-stubby_can); the rules: purple-short_can at 0.55")
    assert got["asked"]["_why"] == "pixels: purple-stubby_can?"
    no_lower_bar = checked.check(copy.deepcopy(readings), None, None, _opinion_of(rows), "pixels",
                                 naming=checked.Naming(0.99, pool))
    assert all(d["unsure"] for d in no_lower_bar)


def _split(shares: dict[str, float]) -> np.ndarray:
    """A row holding the given drinks' shares, the rest spread over the other 34 and no drink."""
    row = np.full(37, (1.0 - sum(shares.values())) / (37 - len(shares)))
    for drink, p in shares.items():
        colour, shape = drink.split("-", 1)
        row[checked.drink_index({"color": colour, "shape": shape})] = p
    return row


def test_each_drink_once_names_a_reading_whose_other_drinks_are_read_surely_elsewhere():
    """``Naming.once`` (issue 26, item 4: each drink exists once): a reading left unsure is named
    from its row without the drinks the frame reads surely elsewhere, at the naming's bar; a
    reading so named takes its drink too, so a third torn between it and another is named in
    turn; one whose other drink is not taken stays unsure; a sure reading is never changed.
    Without ``once`` nothing is named."""
    rows = {"sure": _split({"red-stubby_can": 0.999}),
            "torn": _split({"red-stubby_can": 0.7, "red-short_can": 0.2995}),           # stubby is taken
            "chain": _split({"red-short_can": 0.6, "red-tall_can": 0.3995}),            # short, once torn is named
            "free": _split({"blue-tall_can": 0.5, "blue-short_can": 0.4995})}           # neither is taken
    readings = [{"id": "sure", "color": "red", "shape": "stubby_can", "confidence": 0.99, "unsure": False, "_f": {}}] + [
        {"id": k, "color": "red", "shape": "stubby_can", "confidence": 0.5, "unsure": True, "_f": {}}
        for k in ("chain", "torn", "free")]
    got = {d["id"]: d for d in checked.check(copy.deepcopy(readings), None, None, _opinion_of(rows), "pixels",
                                             naming=checked.Naming(0.99, "both", once=True))}
    assert (got["torn"]["shape"], got["torn"]["unsure"]) == ("short_can", False)
    assert got["torn"]["_why"].startswith("named by pixels, each drink once at 0.998")
    assert (got["chain"]["shape"], got["chain"]["unsure"]) == ("tall_can", False)
    assert got["free"]["unsure"] and got["free"]["color"] == "red"
    assert got["sure"] == readings[0]
    plain = checked.check(copy.deepcopy(readings), None, None, _opinion_of(rows), "pixels",
                          naming=checked.Naming(0.99, "both"))
    assert [d["unsure"] for d in plain] == [False, True, True, True]
    assert checked.naming_settings(checked.alone_model(str(checked.SET_PATH))).once   # the committed check's


def test_readings_the_rules_doubt_are_named_again_by_the_set_network_on_a_real_frame():
    """The whole check with the committed set network and its naming, on a development table's
    frame: the rules' sure readings are made doubtful by hand and renamed to a wrong drink (as the
    rules' doubt looks); where the network is sure of the piece (at the naming's bar), the check
    names it back to the drink it is, sure; the rest stay unsure. Without the naming none is."""
    profile, _image, an, rules, _truth = _rules_pieces("separated")
    model = checked.alone_model(str(checked.SET_PATH))
    naming = checked.naming_settings(model)
    if naming is None:
        pytest.skip("the committed set network names nothing (tools/choose_network_names.py chose no naming)")
    _agree, fitted, mirror = checked.pixel_check_settings(model)
    sure = [i for i, d in enumerate(rules) if not d["unsure"] and "_f" in d and (fitted or not d.get("_fitted"))]
    assert len(sure) >= 4
    doubted = copy.deepcopy(rules)
    for i in sure:
        own = checked.drink_index(doubted[i])
        doubted[i]["color"], doubted[i]["shape"] = checked.drink_name((own + 6) % 36).split("-", 1)
        doubted[i]["unsure"], doubted[i]["confidence"] = True, 0.4
    p = checked.pixel_opinion([rules[i] for i in sure], an, profile, model, mirror)

    def bar(i, row):       # one of the rules' two (the doubted name or the runner-up) from the lower bar
        top = checked.drink_name(int(np.argmax(row[:36])))
        two = (f"{doubted[i]['color']}-{doubted[i]['shape']}", doubted[i].get("_second"))
        return min(naming.bar, naming.agreeing) if naming.agreeing and two[1] and top in two else naming.bar
    expect = {i for i, row in zip(sure, p) if row[:36].max() >= bar(i, row)}
    assert len(expect) >= len(sure) // 2, "the network is sure of too few of a plain table's drinks to test"
    got = checked.check_set(copy.deepcopy(doubted), an, profile)
    for i, row in zip(sure, p):
        if i in expect:
            assert not got[i]["unsure"] and f"{got[i]['color']}-{got[i]['shape']}" == checked.drink_name(int(np.argmax(row[:36])))
            assert got[i]["confidence"] >= bar(i, row) - 1e-4
        else:
            assert got[i]["unsure"] and (got[i]["color"], got[i]["shape"]) == (doubted[i]["color"], doubted[i]["shape"])


def test_a_naming_is_refused_an_unknown_pool_and_read_from_the_models_settings():
    with pytest.raises(ValueError, match="naming pool must be one of"):
        checked.Naming(0.99, "all")
    model = checked.alone_model(str(checked.SET_PATH))
    naming = checked.naming_settings(model)
    if naming is not None:        # chosen by tools/choose_network_names.py on training-family tables
        name = model.settings["check"]["name"]
        assert 0.9 <= naming.bar < 1 and name["named_right"] >= 0.997 * name["named"]
        trained = {(fam, s) for fam, s, _ in model.settings["trained"]["tables"]}
        assert all(fam == "train" for fam, _, _ in name["tables"])
        assert not any((fam, s) in trained for fam, first, last in name["tables"] for s in range(first, last + 1))
    assert checked.naming_settings(checked.alone_model()) is None     # checked-pixels' network names nothing


# --- checked-sure: the learned sureness (vision/sure.py) ----------------------------------------

def test_the_sureness_model_loads_is_small_and_was_fitted_on_training_tables_only():
    """The committed sureness: a few KB of JSON over numbers of sure.INPUTS, its bar within bounds
    (a fit that broke would give no bar or one at an end), fitted on training-family tables that
    neither this development table nor the evaluation family are among, and its bar chosen by a
    rule the file names (by score, or by the share of sure readings right, at least 99.7 %)."""
    from companion.vision import sure
    assert sure.SURE_PATH.stat().st_size < 8_000
    model = sure.sure_model()
    assert sure.BAR_BOUNDS[0] <= model.bar <= sure.BAR_BOUNDS[1]
    assert model.uses and set(model.uses) <= set(sure.INPUTS)
    assert model.weights.shape == (len(model.uses),) and np.isfinite(model.weights).all()
    assert all(fam == "train" for fam, _, _ in model.settings["tables"])
    how = model.settings["chosen_by"]
    assert how == "score, development within 1.0" or (how.startswith("sure right >= ") and float(how.split()[-1]) >= 0.997)
    assert "checked-sure" in SCORERS


def test_the_sureness_doubts_a_reading_the_network_contradicts_and_trusts_one_it_backs():
    """The same sure rules' reading judged against two opinions of the network: one that puts
    nearly all its weight on the rules' name (kept sure) and one that puts nearly all of it on
    another drink (made unsure, the sureness and the other name in its ``_why``); the guard
    against phantoms still asks first. A model that ignores the network fails here."""
    from companion.vision import sure
    profile, _image, an, rules, _truth = _rules_pieces("separated")
    model = sure.sure_model()
    d = next(r for r in rules if not r["unsure"] and "_f" in r and not r.get("_fitted"))
    own = checked.drink_index(d)
    other = (own + 1) % 36
    backs, contradicts = np.full(37, 1e-4), np.full(37, 1e-4)
    backs[own], contradicts[other] = 0.99, 0.99
    kept = sure.judge([copy.deepcopy(d)], backs[None], an.sharpness, profile, model)[0]
    assert not kept["unsure"]
    asked = sure.judge([copy.deepcopy(d)], contradicts[None], an.sharpness, profile, model)[0]
    assert asked["unsure"] and "sureness" in asked["_why"] and checked.drink_name(other) in asked["_why"]
    assert model.right(sure.inputs(d, contradicts, an.sharpness, profile)[None])[0] < model.bar
    phantom = backs.copy()
    phantom[36] = 0.5
    guarded = sure.judge([copy.deepcopy(d)], phantom[None], an.sharpness, profile, model, checked.NoDrink(0.05, False))[0]
    assert guarded["unsure"] and "no drink?" in guarded["_why"]
