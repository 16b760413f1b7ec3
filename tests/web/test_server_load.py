"""`slmcode serve` with many clients: a burst of connections is taken in, not dropped for the kernel to retry
seconds later, and a client that goes away mid-request leaves no traceback on the server's terminal."""

from __future__ import annotations

import select
import socket
import struct
import threading
import time
from pathlib import Path

import pytest

from slmcode.web.server import make_server
from tests.web.conftest import Web, serving

BURST = 64


def test_a_burst_of_connections_is_taken_in_while_the_server_is_busy(tmp_path: Path) -> None:
    server = make_server(tmp_path, 0)  # listening, but not yet accepting: as when every thread is busy
    port = server.server_address[1]
    clients = []
    try:
        for _ in range(BURST):
            sock = socket.socket()
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            clients.append(sock)
        waiting, joined = set(clients), 0
        deadline = time.monotonic() + 5
        while waiting and time.monotonic() < deadline:
            _, ready, _ = select.select([], list(waiting), [], 0.2)
            for sock in ready:
                waiting.discard(sock)
                joined += sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
        assert joined == BURST  # the kernel's queue took them all: none waits a SYN retry (1 s, 3 s, 7 s ...)
    finally:
        for sock in clients:
            sock.close()
        server.server_close()


def test_a_client_that_goes_away_leaves_no_traceback(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    with serving(tmp_path) as web:
        for _ in range(20):
            gone(web)
        assert web.get("/").status == 200  # still serving
    assert "Traceback" not in capfd.readouterr().err


def gone(web: Web) -> None:
    """Send half a request, then reset the connection (a closed tab, a client that timed out)."""
    sock = socket.create_connection(("127.0.0.1", web.port))
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()
    threading.Event().wait(0.02)
