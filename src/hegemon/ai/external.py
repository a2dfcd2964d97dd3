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
import urllib.request
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from hegemon.ai.base import register
from hegemon.core.actions import Action
from hegemon.core.errors import ConfigError, HegemonError
from hegemon.core.game import PlayerId, State


class ExternalBot:
    """A seat played by an HTTP endpoint (see the module docstring for the protocol)."""

    name = "external"

    def __init__(self, url: str, timeout: float = 30.0) -> None:
        if not url.startswith(("http://", "https://")):
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
                answer = json.loads(resp.read().decode())
        except (OSError, ValueError) as e:
            raise HegemonError(f"external bot at {self.url} failed: {e}") from None
        if isinstance(answer, dict) and isinstance(answer.get("index"), int):
            i = answer["index"]
            if 0 <= i < len(legal):
                return legal[i]
        elif isinstance(answer, dict) and "action" in answer:
            wanted = answer["action"]
            for a in legal:
                if a.to_json() == wanted:
                    return a
        raise HegemonError(f"external bot at {self.url} answered no legal action: {str(answer)[:200]}")


def serve_bot(
    choose: Callable[[dict[str, Any]], dict[str, Any]], port: int = 0, host: str = "127.0.0.1"
) -> ThreadingHTTPServer:
    """Start (in a daemon thread) an HTTP endpoint answering each request with `choose(request)`; returns
    the server (its `server_address` has the port; call `shutdown()` to stop it)."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            n = int(self.headers.get("Content-Length", "0"))
            request = json.loads(self.rfile.read(n).decode())
            data = json.dumps(choose(request)).encode()
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
