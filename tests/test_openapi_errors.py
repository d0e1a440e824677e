"""/openapi.json names every status each route answers, with its body, and a 405 names every
method of its path (companion/server/openapi_errors.py). In process, quickly; Schemathesis
checks the same against the real server in tests/test_api_schema.py."""
from __future__ import annotations


def test_every_route_documents_the_errors_it_can_answer(client):
    doc = client.get("/openapi.json").json()
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            expected = {"400", "413"} | ({"404", "409"} if "{game_id}" in path else set()) | \
                       ({"422"} if "requestBody" in operation else set())
            assert expected <= set(responses), (method, path, sorted(responses))
            for status, response in responses.items():
                if status[0] == "4":
                    assert list(response["content"]) == ["application/json"], (method, path, status)
    paths = doc["paths"]
    assert "403" in paths["/api/games/{game_id}/view"]["get"]["responses"]        # a token
    assert "403" in paths["/api/games/{game_id}/moves"]["post"]["responses"]      # a token in the body
    assert "403" not in paths["/api/game-types"]["get"]["responses"]
    assert list(paths["/api/games/{game_id}/players/{seat}/qr.svg"]["get"]["responses"]["200"]["content"]) == \
        ["image/svg+xml"]
    # A 422 the route words itself ("bots must be seats 0 to 2") is a string; FastAPI's, a list.
    detail = doc["components"]["schemas"]["HTTPValidationError"]["properties"]["detail"]
    assert [kind.get("type") for kind in detail["anyOf"]] == ["string", "array"]


def test_a_405_lists_every_method_of_its_path(client):
    r = client.request("OPTIONS", "/api/games")
    assert r.status_code == 405 and r.json() == {"detail": "Method Not Allowed"}
    assert set(r.headers["allow"].split(", ")) == {"GET", "POST"}
    r = client.put("/api/games/x/moves")
    assert r.status_code == 405 and r.headers["allow"] == "POST"
