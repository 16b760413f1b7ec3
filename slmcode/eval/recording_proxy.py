"""Recording a replay: a loopback proxy between an attempt and the real model server that keeps every answer,
labelled with the role that asked (recognised by its system prompt), as a replay file eval/replay.py serves.

The proxy asks the upstream server without streaming and streams the answer itself when the client asked
for a stream, so an answer is recorded whole. The Authorization header is passed through, never stored.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from slmcode.eval.loopback import LoopbackServer
from slmcode.eval.replay import role_prompt
from slmcode.eval.scripted import Reply, stream_chunks, system_text

UPSTREAM_TIMEOUT_SECONDS = 900


def role_of(request: dict[str, Any]) -> str:
    """The asking role, by the longest role prompt its system text holds (a longer prompt is more specific)."""
    from slmcode.nodes.prompts import SYSTEM

    text = system_text(request)
    found = [role for role in ("baseline", *SYSTEM) if role_prompt(role) in text]
    return max(found, key=lambda role: len(role_prompt(role)), default="unknown")


def recorded_answer(request: dict[str, Any], completion: dict[str, Any]) -> dict[str, Any]:
    message = (completion.get("choices") or [{}])[0].get("message") or {}
    calls = [
        {"name": c["function"]["name"], "arguments": _arguments(c["function"].get("arguments", ""))}
        for c in message.get("tool_calls") or []
    ]
    line: dict[str, Any] = {"role": role_of(request), "content": message.get("content") or ""}
    return line | ({"tool_calls": calls} if calls else {})


def _arguments(raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw  # kept as sent: replaying a malformed call must reproduce it


class RecordingProxy(LoopbackServer):
    """Start with .start(); .url is the base_url to give the attempt; .answers holds what was recorded."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.answers: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _handler_for(self)

    def forward(self, method: str, path: str, body: bytes | None, auth: str | None) -> tuple[int, bytes]:
        request = urllib.request.Request(
            self.upstream + path.removeprefix("/v1"),
            data=body,
            method=method,
            headers={"Content-Type": "application/json"},
        )
        if auth:
            request.add_header("Authorization", auth)
        try:
            with urllib.request.urlopen(request, timeout=UPSTREAM_TIMEOUT_SECONDS) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()

    def write(self, path: Path, head: dict[str, Any]) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        with self._lock:
            lines = [head, *self.answers]
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        return path


def _handler_for(proxy: RecordingProxy) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _send(self, status: int, data: bytes, kind: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._send(*proxy.forward("GET", self.path, None, self.headers.get("Authorization")))

        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            stream = bool(request.pop("stream", False))
            request.pop("stream_options", None)
            status, data = proxy.forward(
                "POST", self.path, json.dumps(request).encode(), self.headers.get("Authorization")
            )
            if status != 200 or not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(status, data)
                return
            completion = json.loads(data)
            answer = recorded_answer(request, completion)
            with proxy._lock:
                proxy.answers.append(answer)
            if not stream:
                self._send(200, data)
                return
            reply = Reply(content=answer["content"], tool_calls=answer.get("tool_calls", []))
            body = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in stream_chunks(request, reply))
            self._send(200, (body + "data: [DONE]\n\n").encode(), "text/event-stream")

    return Handler
