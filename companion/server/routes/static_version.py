"""The dashboard's pages with their scripts and styles at addresses of this version of the static
files: ``/static/v/<version>/js/table.js``, kept by a browser without asking again
(``Cache-Control: immutable``) until a page names another version.

Why: served as plain ``/static/...`` files with no cache header, a browser keeps each script for a
tenth of the file's age and then asks again for all 72 of them (a 304 each) on every page it opens:
on a tablet or a phone opened anew for a bid, and in a fresh checkout where every file is new, a
page load cost twice the CPU (docs/performance.md, "The test suite", 2026-12-04). The version is a
hash of the static files' names, sizes and modification times, taken again at most once a second,
so an edited or upgraded file gets a new address at once; the page itself is asked for every time
(``no-cache``). The scripts import one another by relative addresses (and i18n.js finds the
catalogues beside itself), so the whole page stays within one version.
"""
from __future__ import annotations

import hashlib
import os
import re
import time
from functools import lru_cache
from pathlib import Path

from fastapi import HTTPException
from fastapi.responses import FileResponse, HTMLResponse, Response

STATIC = Path(__file__).parent.parent / "static"
KEEP = "public, max-age=31536000, immutable"
ASK_AGAIN = "no-cache"
MAX_PATH = 200          # a static file's path is far shorter
MAX_VERSION = 64        # the version is 12 hex digits
_STATIC_REF = re.compile(r'(\b(?:href|src)=")/static/')


@lru_cache(maxsize=1)
def _version_at(second: int) -> str:
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(STATIC):
        dirs.sort()
        for name in sorted(files):
            st = os.stat(os.path.join(root, name))
            digest.update(f"{os.path.relpath(os.path.join(root, name), STATIC)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:12]


def static_version() -> str:
    """This version of the static files (looked at again at most once a second)."""
    return _version_at(int(time.monotonic()))


def page(name: str) -> Response:
    """The page ``static/<name>`` with its ``/static/`` references at this version's addresses."""
    text = _STATIC_REF.sub(rf"\1/static/v/{static_version()}/", (STATIC / name).read_text(encoding="utf-8"))
    return HTMLResponse(text, headers={"Cache-Control": ASK_AGAIN})


def versioned_file(version: str, path: str) -> Response:
    """A static file at a version's address: kept for good when it is this version's, asked for
    again when the files changed since the page named it."""
    base = STATIC.resolve()
    try:   # a name too long for the file system is no file either (OSError), nor a path past the bound
        file = (base / path).resolve() if len(path) <= MAX_PATH and len(version) <= MAX_VERSION else None
        found = file is not None and file.is_relative_to(base) and file.is_file()
    except OSError:
        found = False
    if not found:
        raise HTTPException(status_code=404)   # "Not Found", as the plain /static/ files answer
    return FileResponse(file, headers={"Cache-Control": KEEP if version == static_version() else ASK_AGAIN})
