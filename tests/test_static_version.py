"""The pages' scripts and styles at a version's address (companion/server/routes/static_version.py):
every /static/ reference of a page carries this version; such a file is kept for good while its
version is the files' own, asked for again once the files changed; nothing outside static/."""
from __future__ import annotations

import re

import pytest

from companion.server.routes import static_version

PAGES = ["/", "/player", "/how", "/history"]


@pytest.mark.parametrize("path", PAGES)
def test_a_page_names_its_files_at_this_version(client, path):
    r = client.get(path)
    assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
    refs = re.findall(r'(?:href|src)="(/static/[^"]+)"', r.text)
    version = static_version.static_version()
    assert refs and all(ref.startswith(f"/static/v/{version}/") for ref in refs), refs
    for ref in refs:
        got = client.get(ref)
        assert got.status_code == 200, ref
        assert got.headers["cache-control"] == "public, max-age=31536000, immutable", ref
        assert got.content == client.get(ref.replace(f"/v/{version}", "")).content, ref


def test_a_file_named_by_another_version_is_asked_for_again(client):
    got = client.get("/static/v/0123456789ab/js/table.js")
    assert got.status_code == 200 and got.headers["cache-control"] == "no-cache"


def test_an_edited_file_gets_a_new_version(tmp_path, monkeypatch):
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("1")
    monkeypatch.setattr(static_version, "STATIC", tmp_path)
    static_version._version_at.cache_clear()
    before = static_version._version_at(0)
    (tmp_path / "js" / "a.js").write_text("22")
    static_version._version_at.cache_clear()
    assert static_version._version_at(0) != before
    static_version._version_at.cache_clear()


@pytest.mark.parametrize("path", ["../app.py", "..%2Fapp.py", "js/no-such.js", "js",
                                  "a" * 5000, "/".join(["a" * 300] * 3)])   # names too long for the file system
def test_nothing_outside_the_static_files(client, path):
    r = client.get(f"/static/v/{static_version.static_version()}/{path}")
    assert r.status_code == 404 and r.json()["detail"] == "Not Found"   # (a message the catalogues translate)


def test_a_version_past_its_bound_is_no_version(client):
    r = client.get(f"/static/v/{'x' * 10_000}/js/table.js")
    assert r.status_code == 404 and r.json()["detail"] == "Not Found"
