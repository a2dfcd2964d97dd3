"""The web client's files, compressed and cached.

- `/static/v-<version>/...`: the files of this version of the client, cached by browsers for a year
  (`immutable`). `<version>` is a digest of every file of the client, so a new client has new addresses; the
  pages name their scripts and styles by these addresses, and the scripts load the rest by relative addresses
  (ES modules, `import.meta.url`), so they stay within one version.
- `/static/...` (no version, or another version's address: an old page after an upgrade): the same files,
  revalidated on every use (`no-cache`, with an ETag: a 304 when unchanged).
- The pages (`/`, `/t/<id>`, `/r/<id>`, `/rules/<game>`): revalidated on every use (`no-cache` and an ETag), so a
  new client is seen at the next load.
- Text of at least `GZIP_MINIMUM` bytes is sent gzip-compressed to a browser that accepts it (Starlette's
  `GZipMiddleware`; a large file is compressed in a worker thread), with `Vary: Accept-Encoding` and a weak
  ETag (the bytes differ from the file's).

The version is computed once, when the server starts: restart the server after editing the client."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from starlette._utils import get_route_path
from starlette.datastructures import MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

GZIP_MINIMUM = 1024
"""Smaller files are sent as they are (the gzip header and the work would cost more than they save)."""
GZIP_LEVEL = 6
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
_VERSIONED = re.compile(r"^/v-([0-9a-f]{1,32})(/.*)$")


def client_version(directory: Path) -> str:
    """A digest of every file of the client (names and bytes): it changes whenever any file does."""
    h = hashlib.sha256()
    for p in sorted(x for x in directory.rglob("*") if x.is_file()):
        h.update(p.relative_to(directory).as_posix().encode() + b"\0")
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


class Assets:
    """The ASGI app mounted at /static (see the module text)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.version = client_version(directory)
        self.prefix = f"/static/v-{self.version}/"
        self.files = GZipMiddleware(
            StaticFiles(directory=directory), minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL
        )
        self._pages: dict[str, tuple[bytes, str]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        cache = REVALIDATE
        if scope["type"] == "http":
            m = _VERSIONED.match(get_route_path(scope))
            if m:
                if m[1] == self.version:
                    cache = IMMUTABLE
                scope = dict(scope)
                scope["path"] = scope.get("root_path", "") + m[2]
                scope.pop("raw_path", None)

        async def send_cached(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                ok = message["status"] in (200, 304)
                headers["Cache-Control"] = cache if ok else "no-store"
                etag = headers.get("etag")
                if etag and headers.get("content-encoding") == "gzip" and not etag.startswith("W/"):
                    headers["etag"] = f"W/{etag}"
            await send(message)

        await self.files(scope, receive, send_cached)

    def page(self, name: str, request: Request) -> Response:
        """A page of the client (`index.html`…) naming this version's files, revalidated on every use."""
        if name not in self._pages:
            text = (self.directory / name).read_text(encoding="utf-8").replace('"/static/', f'"{self.prefix}')
            body = text.encode()
            self._pages[name] = (body, f'"{hashlib.sha256(body).hexdigest()[:20]}"')
        body, etag = self._pages[name]
        headers = {"Cache-Control": REVALIDATE, "ETag": etag}
        wanted = request.headers.get("if-none-match", "")
        if etag in (t.strip().removeprefix("W/") for t in wanted.split(",")):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="text/html; charset=utf-8", headers=headers)
