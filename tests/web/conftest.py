"""A running `slmcode serve` server on a free loopback port, and a plain HTTP client for it."""

from __future__ import annotations

import http.client
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest

from slmcode.web.server import make_server


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    text: str


@dataclass
class Web:
    workspace: Path
    port: int
    token: str

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def cookie(self) -> str:
        return f"slmcode_token_{self.port}={self.token}"

    def request(
        self,
        method: str,
        path: str,
        *,
        body: str | None = None,
        headers: dict[str, str] | None = None,
        auth: bool = True,
    ) -> Reply:
        sent = {"Host": f"127.0.0.1:{self.port}", **({"Cookie": self.cookie} if auth else {}), **(headers or {})}
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=sent)
            reply = conn.getresponse()
            return Reply(reply.status, reply.headers, reply.read().decode("utf-8"))
        finally:
            conn.close()

    def get(self, path: str, **kwargs: object) -> Reply:
        return self.request("GET", path, **kwargs)  # type: ignore[arg-type]

    def post(self, path: str, fields: dict[str, str], **kwargs: object) -> Reply:
        return self.request("POST", path, body=urlencode(fields), **kwargs)  # type: ignore[arg-type]


@contextmanager
def serving(workspace: Path) -> Iterator[Web]:
    server = make_server(workspace, 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield Web(workspace, server.server_address[1], server.app.guard.token)  # type: ignore[attr-defined]
    finally:
        server.app.stopping.set()  # type: ignore[attr-defined]
        server.shutdown()
        server.server_close()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    return root


@pytest.fixture
def web(workspace: Path) -> Iterator[Web]:
    with serving(workspace) as running:
        yield running
