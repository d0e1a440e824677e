"""The options a lobby offers as choices (companion/rules/choices.py): declared per game, checked
against the game's options when the game is declared, listed by GET /api/game-types, and sent
back as the new game's options. The lobby drawing them is played in tests/test_dashboard_osaka.py."""
from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Literal

import pytest

from companion.rules import choices
from companion.rules.choices import Choice, offered
from companion.rules.options import Flag, GameOptions, Whole

I18N = Path(__file__).resolve().parents[1] / "companion" / "server" / "static" / "i18n"


class Opts(GameOptions):
    system: Literal["tokyo", "osaka"] = "tokyo"
    quick: Flag = False
    rounds: Whole = 3


def test_a_literal_offers_its_values_and_a_flag_no_and_yes():
    assert offered(Opts, (Choice("quick"), Choice("system"))) == [
        {"option": "quick", "values": [False, True], "default": False},
        {"option": "system", "values": ["tokyo", "osaka"], "default": "tokyo"}]
    assert offered(Opts, (Choice("system", ("osaka", "tokyo")),))[0]["values"] == ["osaka", "tokyo"]


@pytest.mark.parametrize("choice, says", [
    (Choice("colour"), "has no such option"),
    (Choice("rounds"), "only an option of named values"),
    (Choice("system", ("tokyo", "kyoto")), "kyoto is not a value"),
    (Choice("system", ("osaka",)), "its default 'tokyo' is not among the values offered"),
])
def test_a_choice_the_options_cannot_take_is_refused_when_declared(choice, says):
    with pytest.raises(ValueError, match=says):
        offered(Opts, (choice,))


def test_the_metro_games_offer_their_cards_and_metro_drinks_its_board(client):
    types = {t["id"]: t for t in client.get("/api/game-types").json()}
    assert types["tokyo_metro"]["choices"] == [{"option": "card_set", "values": ["board", "osaka"], "default": "board"}]
    assert types["osaka_metro"]["choices"] == [{"option": "card_set", "values": ["board", "tokyo"], "default": "board"}]
    assert [(c["option"], c["values"]) for c in types["metro_drinks"]["choices"]] == [
        ("system", ["tokyo", "osaka"]), ("card_set", ["board", "tokyo", "osaka"])]
    assert types["pocari_bet"]["choices"] == []
    # Every choice has its words, in every language (the lobby loads the common catalogue).
    for lang in ("en", "de", "ja"):
        words = json.loads((I18N / lang / "common.json").read_text(encoding="utf-8"))
        for t in types.values():
            for c in t["choices"]:
                assert f"lobby.choice.{c['option']}" in words, (lang, c["option"])
                for v in c["values"]:
                    assert f"lobby.choice.{c['option']}.{json.dumps(v).strip(chr(34))}" in words, (lang, c["option"], v)


def test_a_choice_made_is_the_new_games_option_and_a_wrong_one_a_clear_422(client):
    made = client.post("/api/games", json={"game": "metro_drinks", "names": ["Aki", "Ben"],
                                           "options": {"system": "osaka", "card_set": "tokyo"}})
    assert made.status_code == 201, made.text
    wrong = client.post("/api/games", json={"game": "tokyo_metro", "names": ["Aki", "Ben"],
                                            "options": {"card_set": "kyoto"}})
    assert wrong.status_code == 422 and "card_set" in wrong.text, wrong.text


def test_the_modules_example_runs():
    result = doctest.testmod(choices)
    assert result.attempted and not result.failed
