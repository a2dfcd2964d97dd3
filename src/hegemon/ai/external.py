"""External bots: a player program in another process (any language), reached over HTTP.

The protocol is one request per decision. The bot process receives a POST with the JSON body
`{"game": name, "player": seat, "view": state.view(seat), "legal_actions": [action JSON…]}` — exactly what
that seat may see — and answers `{"action": <one of legal_actions>}` or `{"index": i}`. Use it as a seat with
the spec `external:http://host:port/path` (in `hegemon play --seats`, `selfplay --bots`, the lab).

`serve_bot(choose, port)` runs such an endpoint around a Python function of the request (for tests and as a
template for third parties)."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from hegemon.ai.base import register
from hegemon.core.actions import Action
from hegemon.core.errors import ConfigError, HegemonError
from hegemon.core.game import PlayerId, State

MAX_ANSWER = 1 << 20
"""Bytes of an external bot's answer read at most (an answer is one action: a few hundred bytes)."""


MAX_REQUEST = 64 << 20
"""Bytes of one request `serve_bot` reads at most (a view and its legal actions: well under a megabyte)."""


class ExternalBotError(HegemonError):
    """An external bot could not be reached, did not answer in time, or answered no legal action; the message
    (one line) names its URL and what went wrong."""

    code = "external_bot"

    def __init__(self, url: str, problem: str) -> None:
        self.url = url
        self.problem = problem
        super().__init__(" ".join(f"external bot at {url} {problem}".split()))

    def __reduce__(self) -> tuple[type[ExternalBotError], tuple[str, str]]:
        """Pickled as its URL and problem (a lab worker process sends it back to the parent)."""
        return (type(self), (self.url, self.problem))


class ExternalBot:
    """A seat played by an HTTP endpoint (see the module docstring for the protocol)."""

    name = "external"

    def __init__(self, url: str, timeout: float = 30.0) -> None:
        url = url.strip()
        parts = urllib.parse.urlsplit(url)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise ConfigError("bot", f"external bot needs an http(s) URL, got {url!r}")
        self.url = url
        self.timeout = timeout

    def choose(self, state: State, player: PlayerId) -> Action:
        legal = state.legal_actions()
        view = state.view(player)
        body = {
            "game": view.get("game"),
            "player": player,
            "view": view,
            "legal_actions": [a.to_json() for a in legal],
        }
        req = urllib.request.Request(
            self.url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                raw = resp.read(MAX_ANSWER + 1)
        except urllib.error.HTTPError as e:
            raise ExternalBotError(self.url, f"answered HTTP {e.code} {e.reason}") from None
        except urllib.error.URLError as e:
            if isinstance(e.reason, TimeoutError):
                raise ExternalBotError(self.url, f"did not answer within {self.timeout:g} s") from None
            why = e.reason.strerror if isinstance(e.reason, OSError) and e.reason.strerror else e.reason
            raise ExternalBotError(self.url, f"is unreachable ({why})") from None
        except TimeoutError:
            raise ExternalBotError(self.url, f"did not answer within {self.timeout:g} s") from None
        except OSError as e:
            raise ExternalBotError(self.url, f"failed ({e.strerror or e})") from None
        if len(raw) > MAX_ANSWER:
            raise ExternalBotError(self.url, f"answered more than {MAX_ANSWER} bytes")
        try:
            answer = json.loads(raw.decode())
        except ValueError:
            raise ExternalBotError(self.url, f"answered something that is not JSON: {raw[:80]!r}") from None
        if isinstance(answer, dict) and isinstance(answer.get("index"), int):
            i = answer["index"]
            if 0 <= i < len(legal):
                return legal[i]
        elif isinstance(answer, dict) and "action" in answer:
            wanted = answer["action"]
            for a in legal:
                if a.to_json() == wanted:
                    return a
        raise ExternalBotError(self.url, f"answered no legal action: {str(answer)[:200]}")


def serve_bot(
    choose: Callable[[dict[str, Any]], dict[str, Any]], port: int = 0, host: str = "127.0.0.1"
) -> ThreadingHTTPServer:
    """Start (in a daemon thread) an HTTP endpoint answering each request with `choose(request)`; returns
    the server (its `server_address` has the port; call `shutdown()` to stop it)."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            try:
                n = int(self.headers.get("Content-Length", "0"))
                if not 0 <= n <= MAX_REQUEST:
                    raise ValueError(f"a request of {n} bytes")
                request = json.loads(self.rfile.read(n).decode())
                data = json.dumps(choose(request)).encode()
            except Exception as e:  # the caller sees a failing bot (HTTP 500), the server goes on
                self.send_error(500, explain=f"{type(e).__name__}: {e}"[:200])
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: a bot server does not log every request to stderr."""
            return None

    server = ThreadingHTTPServer((host, port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


register("external", lambda arg, seed: ExternalBot(arg))
