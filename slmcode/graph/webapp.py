"""The LangGraph server's front door (langgraph.json `http.app`): requests a browser could forge are refused.

A page on any web site can make the user's browser POST to 127.0.0.1:2024; with `Content-Type: text/plain`
such a request needs no CORS preflight, and the server would parse its body as JSON and start a run. So every
request that carries a body must say `application/json` (langgraph_sdk always does; a browser cannot send that
cross-origin without a preflight), and any request whose Origin is not this machine's loopback is refused
before routing, preflights included.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


def refusal(method: str, headers: dict[str, str]) -> tuple[int, str] | None:
    """(status, reason) when a request must not reach the server, else None."""
    origin = headers.get("origin")
    if origin is not None and (urlsplit(origin).hostname or "") not in LOOPBACK_HOSTS:
        return 403, f"requests from origin {origin[:80]} are refused; this server serves loopback clients only"
    if method in BODY_METHODS:
        kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            return 415, f"request bodies must be application/json, not {kind or 'unnamed'}"
    return None


class SameMachineOnly:
    """Pure ASGI middleware (streams pass through untouched) applying `refusal` to every HTTP request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            refused = refusal(scope.get("method", "GET"), headers)
            if refused is not None:
                status, reason = refused
                body = json.dumps({"detail": reason}).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": status,
                        "headers": [(b"content-type", b"application/json")],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


app = Starlette(middleware=[Middleware(SameMachineOnly)])
