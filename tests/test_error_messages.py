"""The server's refusals in the viewer's language (companion/server/messages/).

Every English message that can reach a client (found in companion/'s source by
tests/message_sources.py) has a translation in every catalogue, with the same slots; the API
answers the same refusal in German to a German request, in Japanese to a Japanese one, in
English otherwise, with the same status and the body's shape; what no template matches stays
English; FastAPI's validation lists keep their locations.
"""
from __future__ import annotations

import pytest
from api_support import NOBODY, start_game, table_client
from message_sources import templates
from pydantic_core import PydanticKnownError
from starlette.websockets import WebSocketDisconnect

from companion.server.messages.language import choose_language
from companion.server.messages.translate import SLOT, load_catalogue, offered, slots, translator
from companion.table.store import EventStore

LANGS = ("de", "ja")


def test_every_language_has_a_catalogue():
    assert set(LANGS) <= set(offered())


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated_with_its_slots(lang):
    catalogue = load_catalogue(lang)["messages"]
    found = templates()
    missing = sorted(set(found) - set(catalogue))
    assert not missing, f"{lang}: not translated (PYTHONPATH=. python tests/message_sources.py {lang}): {missing}"
    stale = sorted(set(catalogue) - set(found))
    assert not stale, f"{lang}: no longer in the source: {stale}"
    for english, text in catalogue.items():
        assert text.strip(), english
        assert set(slots(text)) == set(slots(english)), (lang, english, text)


@pytest.mark.parametrize("lang", LANGS)
def test_validation_messages_use_pydantics_context(lang):
    validation = load_catalogue(lang)["validation"]
    for kind in ("missing", "int_type", "string_type", "greater_than_equal", "less_than_equal", "too_long",
                 "string_too_long", "literal_error", "json_invalid", "value_error", "extra_forbidden"):
        assert kind in validation, (lang, kind)
    for kind, text in validation.items():
        ctx = {name: 1 for name in slots(text)} | {"expected_plural": "s", "field_type": "List", "error": "x",
                                                   "expected": "'a'", "actual_length": 2}
        english = PydanticKnownError(kind, ctx).message_template
        assert set(slots(text)) <= set(SLOT.findall(english)) - {""}, (lang, kind, english)


def test_messages_translated_by_template_and_slot():
    de, ja = translator("de"), translator("ja")
    said = "it is not Aki's turn; the game waits for Ben (seat 1), whose turn it is to take an action or pass"
    assert de.message(said) == ("Aki ist nicht am Zug; das Spiel wartet auf Ben (Platz 1), der am Zug ist, "
                                "eine Aktion zu nehmen oder zu passen")
    assert ja.message("a drink costs 300 yen and you have 100") == \
        "ドリンクは300円ですが、手持ちは100円です"
    # A message inside a message; a quoted id is shown as written; a slot right before another.
    assert de.message("the 'bid' move is malformed: 'amount' must be a whole number, not 'x'") == \
        "der 'bid'-Zug ist fehlerhaft: 'amount' muss eine ganze Zahl sein, nicht 'x'"
    assert de.message("share #2 of line A costs 700 yen (500 + 200 for share #2); you have 300") == \
        "Anteil #2 der Linie A kostet 700 Yen (500 + 200 für Anteil #2); du hast 300"
    # A slot filled from a closure's free name (the watch routes' ``absent``, given by their maker).
    assert de.message("the crate camera has nothing to read in game g7: it is not played on a grid of crates: the "
                      "crate camera reads GRAPE SODA, YUZU and the exploding cans") == (
        "die Kistenkamera hat in Spiel g7 nichts zu lesen: es wird nicht auf einem Raster aus Kisten gespielt: die "
        "Kistenkamera liest GRAPE SODA, YUZU und die explodierenden Dosen")
    # What no template matches stays as it is; a short template never takes a whole sentence.
    assert de.message("the moon is made of cheese") == "the moon is made of cheese"
    assert de.message("Ben to dance") == "Ben to dance"
    assert de.message("no game '{x}'; the host's lobby lists the games") == \
        "kein Spiel '{x}'; die Übersicht des Gastgebers listet die Spiele"
    # A caller's long text inside a message is left as it is (no pattern backtracks over it).
    kind = " to (" * 800
    assert de.message(f"now is the time to bid, not to {kind}") == f"now is the time to bid, not to {kind}"
    assert de.message(f"now is the time to bid, not to {kind[:200]}") == \
        f"jetzt ist Zeit für bid, nicht für {kind[:200]}"


def test_the_language_a_request_wants():
    assert choose_language(None, None, LANGS) == "en"
    assert choose_language(None, "de-CH, en;q=0.8", LANGS) == "de"
    assert choose_language(None, "fr, ja;q=0.5, de;q=0.4", LANGS) == "ja"
    assert choose_language(None, "fr, *;q=0.5", LANGS) == "en"
    assert choose_language("ttc_lang=ja; ttc_host=k", "de", LANGS) == "ja"   # the dashboard's choice first
    assert choose_language("ttc_lang=xx", "de;q=0, ja", LANGS) == "ja"
    assert choose_language("=;;bad", "de", LANGS) == "de"


def test_the_api_refuses_in_the_viewers_language(tmp_path):
    with table_client(EventStore(tmp_path)) as client:
        gid, _tokens = start_game(client, game="pocari_bet", names=["Aki", "Ben", "Chie"], seed=3)
        bad = {"move": {"kind": "invest", "player": 0, "args": {"amount": 7}}}
        english = client.post(f"/api/games/{gid}/moves", json=bad)
        assert english.status_code == 409 and set(english.json()) == {"detail"}
        german = client.post(f"/api/games/{gid}/moves", json=bad, headers={"Accept-Language": "de-DE,de;q=0.9"})
        japanese = client.post(f"/api/games/{gid}/moves", json=bad, headers={"Cookie": "ttc_lang=ja"})
        for answer in (german, japanese):
            assert answer.status_code == 409
            assert answer.json()["detail_en"] == english.json()["detail"]
            assert answer.json()["detail"] != english.json()["detail"]
        assert "Aki" in german.json()["detail"] and "nicht am Zug" in german.json()["detail"], german.json()
        assert "Akiの番ではありません" in japanese.json()["detail"], japanese.json()
        assert german.headers["content-language"] == "de"
        french = client.post(f"/api/games/{gid}/moves", json=bad, headers={"Accept-Language": "fr"})
        assert french.json() == english.json()

        # The server's own refusals, the Guard's, and FastAPI's 404 and validation list.
        de = {"Accept-Language": "de"}
        assert client.get("/api/games/nope/view", headers=de).json()["detail"] == \
            "kein Spiel 'nope'; die Übersicht des Gastgebers listet die Spiele"
        assert client.get("/api/games", headers={**de, **NOBODY}).status_code == 403
        assert "nur der Gastgeber (die Spiele auflisten)" in \
            client.get("/api/games", headers={**de, **NOBODY}).json()["detail"]
        assert client.get("/api/nothing-here", headers=de).json()["detail"] == "Nicht gefunden"
        guard = client.get("/api/games", headers={**de, "Host": "evil.example"})
        assert guard.status_code == 400 and "antwortet nicht" in guard.json()["detail"]
        invalid = client.post("/api/games", json={"names": [], "seed": -1}, headers={"Accept-Language": "ja"})
        assert invalid.status_code == 422
        errors = {tuple(e["loc"]): e for e in invalid.json()["detail"]}
        assert errors[("body", "names")]["msg"] == "1個以上必要です（0個ではなく）"
        assert errors[("body", "seed")]["msg"] == "0以上でなければなりません"
        assert errors[("body", "seed")]["type"] == "greater_than_equal"

        # A refusal that no template matches keeps its English words (the bots' list says which).
        odd = client.post("/api/games", json={"game": "no_such_game"}, headers=de)
        assert odd.status_code == 422 and odd.json()["detail"] == \
            client.post("/api/games", json={"game": "no_such_game"}).json()["detail"]

        # The live view's refusal, in the language of the page that opened it.
        with pytest.raises(WebSocketDisconnect) as closed:
            with client.websocket_connect("/api/games/nope/ws", headers=de) as ws:
                ws.receive_text()
        assert closed.value.code == 4404 and closed.value.reason.startswith("kein Spiel")
