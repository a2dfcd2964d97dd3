"""The web client's files compressed and cached (issue 28, "what a player can do" item 6), through the real
application: the pages name this version's files, which are cached for a year; unversioned or old addresses and
the pages themselves are revalidated (ETag, 304); large text goes gzip-compressed with a weak ETag."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hegemon.server.app import WEB, create_app
from hegemon.server.assets import GZIP_MINIMUM, client_version


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(None, 0.0)) as c:
        yield c


def versioned(client: TestClient, page: str = "/") -> str:
    html = client.get(page).text
    m = re.search(r'src="(/static/v-[0-9a-f]+)/js/', html)
    assert m, html
    return m[1]


def test_pages_name_this_versions_files_and_are_revalidated(client: TestClient) -> None:
    base = versioned(client)
    assert base == f"/static/v-{client_version(WEB)}"
    for page in ("/", "/t/abc", "/r/abc", "/rules/polis"):
        r = client.get(page)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert r.headers["cache-control"] == "no-cache"
        assert f'"{base}/css/style.css"' in r.text and not re.search(r'"/static/(?!v-)', r.text)
        again = client.get(page, headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        assert "default-src 'self'" in again.headers["content-security-policy"]


def test_versioned_files_are_cached_for_a_year_and_compressed(client: TestClient) -> None:
    base = versioned(client)
    raw = (WEB / "maps" / "spqrisiko.json").read_bytes()
    with client.stream("GET", f"{base}/maps/spqrisiko.json", headers={"Accept-Encoding": "gzip"}) as r:
        sent = b"".join(r.iter_raw())
    assert r.status_code == 200
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert r.headers["content-encoding"] == "gzip" and "accept-encoding" in r.headers["vary"].lower()
    assert gzip.decompress(sent) == raw
    assert len(sent) < len(raw) / 2, (len(sent), len(raw))  # the map (~100 KB) goes in well under half
    assert r.headers["etag"].startswith("W/")  # not the file's bytes: a weak validator
    # ES modules load each other by relative addresses, so a module of this version is served from under it
    js = client.get(f"{base}/js/table.js", headers={"Accept-Encoding": "gzip"})
    assert js.status_code == 200 and js.headers["content-encoding"] == "gzip"
    assert "javascript" in js.headers["content-type"]


def test_unversioned_or_old_addresses_are_revalidated(client: TestClient) -> None:
    for path in ("/static/js/table.js", "/static/v-0123456789ab/js/table.js"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["cache-control"] == "no-cache", path
        again = client.get(path, headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304, path
    # a file that is not there is never cached, under any address
    for path in ("/static/js/nope.js", f"{versioned(client)}/js/nope.js", "/static/v-abc/../server/app.py"):
        r = client.get(path)
        assert r.status_code == 404 and "immutable" not in r.headers.get("cache-control", ""), path


def test_small_files_and_clients_without_gzip_get_the_bytes_as_they_are(client: TestClient) -> None:
    base = versioned(client)
    small = next(p for p in sorted((WEB / "js").glob("*.js")) if p.stat().st_size < GZIP_MINIMUM)
    r = client.get(f"{base}/js/{small.name}", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and "content-encoding" not in r.headers and r.content == small.read_bytes()
    plain = client.get(f"{base}/maps/polis.json", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.content == (WEB / "maps" / "polis.json").read_bytes()
    assert int(plain.headers["content-length"]) == len(plain.content)


def test_the_version_follows_every_file(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("export const a = 1;\n")
    v1 = client_version(tmp_path)
    assert client_version(tmp_path) == v1 and re.fullmatch(r"[0-9a-f]{12}", v1)
    (tmp_path / "js" / "a.js").write_text("export const a = 2;\n")
    v2 = client_version(tmp_path)
    (tmp_path / "js" / "a.js").rename(tmp_path / "js" / "b.js")
    assert len({v1, v2, client_version(tmp_path)}) == 3
