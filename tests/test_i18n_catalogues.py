"""The dashboard's catalogues (companion/server/static/i18n/<lang>/<part>.json), read as files:
every language has the same files and keys, a plural key has exactly the forms its language
needs, a text and its translation have the same {slots}, every game has a catalogue (a page
showing it would fetch a missing one in vain), no key is in two files of a language (the page
merges them), and the app serves them as cacheable static files. No browser: the dashboard tests
show the words in use."""
from __future__ import annotations

import importlib.util
import json
import random
import re
import shutil
from pathlib import Path

import pytest

from companion.rules.engine import CHANCE, ChanceChoice, Move
from companion.rules.games import GAMES

STATIC = Path(__file__).resolve().parents[1] / "companion" / "server" / "static"
I18N = STATIC / "i18n"
# The cardinal plural categories (CLDR, what Intl.PluralRules(lang).select answers for whole
# counts) of each language the dashboard speaks. A new language adds its line here.
PLURAL_FORMS = {"en": {"one", "other"}, "de": {"one", "other"}, "ja": {"other"}}
PLURAL_NAMES = {"zero", "one", "two", "few", "many", "other"}
SLOT = re.compile(r"\{(\w+)\}")


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    assert not twice, f"keys given twice (JSON keeps the last one): {twice}"
    return dict(pairs)


def js_langs() -> list[str]:
    source = (STATIC / "js" / "i18n.js").read_text()
    m = re.search(r"export const LANGS = \[([^\]]*)\]", source)
    assert m, "i18n.js no longer says `export const LANGS = [...]`"
    return re.findall(r'"(\w+)"', m.group(1))


LANGS = js_langs()


def catalogues() -> dict[str, dict[str, dict]]:
    """lang -> part -> {key: text or plural forms}."""
    out: dict[str, dict[str, dict]] = {}
    for lang in LANGS:
        out[lang] = {}
        for path in sorted((I18N / lang).glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_duplicates)
            assert isinstance(data, dict), f"{path}: not an object"
            out[lang][path.stem] = data
    return out


CATS = catalogues()


def slots(value) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    return {s for text in texts for s in SLOT.findall(text)}


def test_the_languages_are_the_folders():
    assert LANGS[0] == "en", "English comes first: a catalogue missing in another language falls back to it"
    assert sorted(LANGS) == sorted(p.name for p in I18N.iterdir() if p.is_dir())


# Catalogues of a page of their own (loaded by that page alone, as a game's is by its table view).
PAGES = {"history", "calibrate_board", "table_cards"}


def test_every_language_has_the_same_files_and_every_game_one():
    want = {"common", *(g.words for g in GAMES.values()), *PAGES}
    for lang, parts in CATS.items():
        assert set(parts) == want, (f"{lang}: missing {sorted(want - set(parts))}, "
                                    f"neither a game nor a page {sorted(set(parts) - want)}")


@pytest.mark.parametrize("lang", LANGS[1:])
def test_every_key_in_english_is_in_each_language_and_back(lang):
    for part, en in CATS["en"].items():
        other = CATS[lang].get(part, {})
        assert not sorted(set(en) - set(other)), f"{lang}/{part}.json lacks {sorted(set(en) - set(other))}"
        assert not sorted(set(other) - set(en)), \
            f"{lang}/{part}.json has keys English lacks: {sorted(set(other) - set(en))}"


def test_no_key_is_in_two_files_of_a_language():
    for lang, parts in CATS.items():
        seen: dict[str, str] = {}
        for part, cat in parts.items():
            for key in cat:
                assert key not in seen, f"{lang}: {key!r} is in {seen[key]}.json and {part}.json"
                seen[key] = part


def test_texts_and_plural_forms():
    for lang, parts in CATS.items():
        assert lang in PLURAL_FORMS, f"say which plural forms {lang} has (PLURAL_FORMS)"
        every = {key for cat in parts.values() for key in cat}
        for part, cat in parts.items():
            for key, value in cat.items():
                where = f"{lang}/{part}.json {key!r}"
                stem, _, last = key.rpartition(".")
                assert not (last in PLURAL_NAMES and stem in every), \
                    f"{where}: plural forms go in {stem!r} as an object, not in keys of their own"
                if isinstance(value, str):
                    assert value.strip(), f"{where}: empty"
                    continue
                assert isinstance(value, dict), f"{where}: neither a text nor plural forms"
                assert set(value) == PLURAL_FORMS[lang], \
                    f"{where}: has the forms {sorted(value)}, {lang} needs {sorted(PLURAL_FORMS[lang])}"
                assert all(isinstance(v, str) and v.strip() for v in value.values()), f"{where}: a form is empty"


@pytest.mark.parametrize("lang", LANGS[1:])
def test_placeholders_match_between_languages(lang):
    wrong = []
    for part, en in CATS["en"].items():
        for key, value in en.items():
            if key in CATS[lang].get(part, {}) and slots(value) != slots(CATS[lang][part][key]):
                theirs = CATS[lang][part][key]
                wrong.append(f"{part}.json {key!r}: en {sorted(slots(value))}, {lang} {sorted(slots(theirs))}")
            if isinstance(value, dict) != isinstance(CATS[lang].get(part, {}).get(key, value), dict):
                wrong.append(f"{part}.json {key!r}: plural forms in one language only")
    assert not wrong, "\n".join(wrong)


def test_the_app_serves_the_catalogues_for_the_browser_to_cache(client):
    res = client.get("/static/i18n/de/pocari_bet.json")
    assert res.status_code == 200
    assert res.headers["content-type"].startswith("application/json")
    assert res.json() == CATS["de"]["pocari_bet"]
    etag = res.headers.get("etag")
    assert etag, "no ETag: the browser could not revalidate its copy"
    again = client.get("/static/i18n/de/pocari_bet.json", headers={"If-None-Match": etag})
    assert again.status_code == 304


# --- which words a game needs --------------------------------------------------------------------

WORD = re.compile(r"^[a-z][a-z0-9_]*$")
MAX_STEPS = 300  # moves per number of seats: every phase, most fields and values, in a second or two


def _walk(value, keys: set, words: set) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            keys.add(str(k))
            _walk(v, keys, words)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _walk(v, keys, words)
    elif isinstance(value, str) and WORD.match(value):
        words.add(value)


def _offered(g, state, actor) -> list[Move]:
    """What the dashboard offers ``actor``: the legal moves, or chance's outcomes (a drop: none
    came out)."""
    if actor != CHANCE:
        return g.legal_moves(state, actor)
    spec = g.chance(state)
    if isinstance(spec, ChanceChoice):
        return [m for m, _ in spec.outcomes]
    return [Move(spec.move_kind, CHANCE, {"out": ()})]


def _random_move(g, state, rng, offered):
    move = rng.choice(offered)
    if move.player == CHANCE and not isinstance(g.chance(state), ChanceChoice):  # a drop: some came out
        spec = g.chance(state)
        return Move(spec.move_kind, CHANCE, {"out": tuple(d for d in spec.candidates if rng.random() < 0.6)})
    return move


def needed_keys(game: str) -> set[str]:
    """The catalogue keys the dashboard may look up for ``game`` (js/values.js, moves.js,
    compose.js, pickers.js, games/generic.js build them so), from random games with the fewest
    seats and the most: field and last-result labels for the views' keys, value.<word> for their
    words, phase.[<game>.]<phase>, and kind/move/compose/chance/pick.[<game>.]<kind> for what is
    offered (moves, chance outcomes), and ev.[<game>.]<kind> for the events of the moves made (the feed)."""
    g, keys, words, phases, kinds, seen = GAMES[game], set(), set(), set(), set(), set()
    allowed = sorted(GAMES[game].players)
    for seats in {allowed[0], allowed[-1]}:  # the fewest seats and the most
        state = g.setup({"names": [f"P{i}" for i in range(seats)], "seed": 1})
        rng = random.Random(seats)
        for step in range(MAX_STEPS):
            for viewer in (None, step % seats):  # the table's view, and each seat's in turn
                view = g.view(state, viewer)
                phases.add(view.get("phase"))
                for key, part in view.items():  # (a part seen before is not walked again: a board is big)
                    keys.add(key)
                    text = json.dumps(part, sort_keys=True)
                    if text not in seen:
                        seen.add(text)
                        _walk(part, keys, words)
            _walk(g.payouts(state), keys, words)
            if g.is_over(state):
                break
            offered = {p.actor: _offered(g, state, p.actor) for p in g.pending(state)}
            for move in (m for moves in offered.values() for m in moves):
                kinds.add(move.kind)
                _walk(move.args, keys, words)
            state, events = g.apply(state, _random_move(g, state, rng, offered[rng.choice(list(offered))]))
            kinds.update(f"event:{e.kind}" for e in events)  # the feed's words for what happened (js/feed.js)
    need = {f"{p}.{k}" for k in keys for p in ("field", "last")} | {f"value.{w}" for w in words}
    words = g.words   # the key part of the game's own words (the METRO games share tokyo_metro's)
    need |= {f"phase.{x}.{p}" for p in phases if p for x in ("", words)}
    events = {k.split(":", 1)[1] for k in kinds if k.startswith("event:")}
    kinds -= {f"event:{k}" for k in events}
    need |= {f"{pre}.{x}.{k}" for k in kinds for x in ("", words)
             for pre in ("kind", "move", "compose", "chance", "pick")}
    need |= {f"ev.{x}.{k}" for k in events for x in ("", words)}
    need |= {f"compose.{sub}.{k}" for k in kinds for sub in ("which", "option", "note")}
    return {k.replace("..", ".") for k in need}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_game_needs_another_games_words(game):
    home = {key: part for part, cat in CATS["en"].items() for key in cat}
    wrong = sorted(f"{key} (in {home[key]}.json)" for key in needed_keys(game)
                   if home.get(key, "common") not in ("common", GAMES[game].words))
    assert not wrong, f"{game} shows these, but its page loads no catalogue of theirs (move them to common.json): " \
                      f"{wrong}"


# --- tools/i18n_missing.py: what the lead runs when new English keys come in ----------------------

def _missing_tool():
    """tools/i18n_missing.py as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("i18n_missing", STATIC.parents[2] / "tools" / "i18n_missing.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_missing_keys_tool_names_each_key_a_language_lacks(tmp_path, capsys):
    tool = _missing_tool()
    assert tool.main([]) == 0, "the catalogues agree (the tests above say so too)"
    capsys.readouterr()
    root = tmp_path / "i18n"
    shutil.copytree(I18N, root)
    ja = root / "ja" / "pocari_bet.json"
    cat = json.loads(ja.read_text(encoding="utf-8"))
    del cat["faceup.title"]
    cat["faceup.gone"] = "もうない"
    ja.write_text(json.dumps(cat, ensure_ascii=False), encoding="utf-8")
    assert tool.main(["--root", str(root)]) == 1
    out = capsys.readouterr().out
    assert "ja/pocari_bet.json: missing 'faceup.title' (en: \"Turned-up cards\")" in out
    assert "ja/pocari_bet.json: not in en 'faceup.gone'" in out
    assert "de: every key of en is there" in out
    assert tool.main(["ja", "--json", "--root", str(root)]) == 1
    assert json.loads(capsys.readouterr().out) == {"pocari_bet.json": {"faceup.title": "Turned-up cards"}}
    assert tool.main(["xx", "--root", str(root)]) == 2

    # The translations come back in that shape and go in where English has the key.
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps({"pocari_bet.json": {"faceup.title": "めくられたカード", "no.such.key": "x"}}))
    assert tool.main(["ja", "--merge", str(answer), "--root", str(root)]) == 2  # nothing written
    assert "'no.such.key': en/pocari_bet.json has no such key" in capsys.readouterr().err
    answer.write_text(json.dumps({"pocari_bet.json": {"faceup.title": "めくられたカード"}}))
    assert tool.main(["ja", "--merge", str(answer), "--root", str(root)]) == 1  # faceup.gone is left over
    merged = json.loads(ja.read_text(encoding="utf-8"))
    assert list(merged) == [*CATS["en"]["pocari_bet"], "faceup.gone"]
    assert merged["faceup.title"] == "めくられたカード"


def test_the_dashboard_shares_catalogues_as_the_games_declare():
    """i18n.js's SHARED_WORDS names, for each game whose words live in another's catalogue, that
    catalogue, as the game's declaration (Declared.catalogue) does."""
    source = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    shared = dict(re.findall(r"(\w+): \"(\w+)\"", re.search(r"SHARED_WORDS = \{([^}]*)\}", source).group(1)))
    assert shared == {name: g.words for name, g in GAMES.items() if g.words != name}
