"""A scripted OpenAI-compatible chat server on loopback: the tests' fake model and the eval suite's replays.

Real HTTP, so the real langchain-openai client path runs. Answers come from rules matched on the request
(first match wins) and then from a queue in order; every request body is recorded so callers can assert on
the exact prompts the harness sent. Streaming (SSE) and non-streaming, with tool calls, are both served.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from slmcode.eval.loopback import LoopbackServer

Request = dict[str, Any]


@dataclass
class Reply:
    """One scripted answer. tool_calls: [{"name": ..., "arguments": dict | str}]. status != 200 sends an error.

    For a broken server: `body` is sent as it is (bytes or text, with `content_type`) instead of a completion;
    `stream` True answers as server-sent events even when the request did not ask for a stream. `cut` N: the
    completion's first N bytes under its full Content-Length, then the connection closes (a server dying
    mid-write); with `cut_length` the Content-Length says N too (a proxy that cut the body and sent it whole).
    """

    content: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    status: int = 200
    delay: float = 0.0
    finish_reason: str | None = None
    body: str | bytes | None = None
    content_type: str = "application/json"
    stream: bool = False
    cut: int | None = None
    cut_length: bool = False
    chunk_delay: float = 0.0  # seconds between two chunks of a streamed answer (a slow model)
    stream_usage: bool = True  # False: a stream without usage, whatever stream_options asks (llama-cpp-python)


ReplyLike = Reply | str | Callable[[Request], "Reply | str"]


def tool_call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}


@dataclass
class Rule:
    match: Callable[[Request], bool]
    replies: list[ReplyLike]
    times: int | None  # None: forever (the last reply repeats)
    used: int = 0


def request_text(request: Request) -> str:
    """All message text of a request, for substring rules."""
    parts = []
    for message in request.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            content = "".join(block.get("text", "") for block in content if isinstance(block, dict))
        parts.append(str(content or ""))
    return "\n".join(parts)


def system_text(request: Request) -> str:
    return "\n".join(
        str(m.get("content") or "") for m in request.get("messages", []) if m.get("role") in ("system", "developer")
    )


class FakeLLM(LoopbackServer):
    """Start with .start() (or as a context manager); .url is the base_url for an OpenAI client."""

    def __init__(self, replies: Iterable[ReplyLike] = (), models: Iterable[str] = ("fake-model",)) -> None:
        self.models = list(models)
        self.queue: list[ReplyLike] = list(replies)
        self.rules: list[Rule] = []
        self.requests: list[Request] = []
        self.default: ReplyLike | None = None
        self.json_schema_supported = True
        # Set to pose as Ollama: /api/version answers, and /api/show gives each model's num_ctx (None: unset).
        self.ollama_num_ctx: dict[str, int | None] | None = None
        # Other GET routes answered with a fixed JSON body, to pose as another server kind (llama.cpp's /props,
        # vLLM's /v1/models with max_model_len, LM Studio's /api/v0/models); they win over the built-in ones.
        self.get_routes: dict[str, Any] = {}
        # GET routes whose whole answer (status line, headers, body) goes out one byte at a time, this many seconds
        # apart: a server whose every read gets a byte, so no read timeout fires. It stops when the server stops.
        self.trickle: dict[str, float] = {}
        self._lock = threading.Lock()

    # scripting ---------------------------------------------------------------------------------------
    def push(self, *replies: ReplyLike) -> FakeLLM:
        with self._lock:
            self.queue.extend(replies)
        return self

    def on(
        self,
        match: str | Callable[[Request], bool],
        *replies: ReplyLike,
        times: int | None = None,
        where: Callable[[Request], str] = system_text,
    ) -> FakeLLM:
        """Answer requests whose text (system prompt by default) contains `match`, or satisfy it."""
        predicate = match if callable(match) else (lambda req, s=match: s in where(req))
        with self._lock:
            self.rules.append(Rule(predicate, list(replies), times))
        return self

    def _next_reply(self, request: Request) -> ReplyLike:
        with self._lock:
            for rule in self.rules:
                exhausted = rule.times is not None and rule.used >= rule.times
                if not exhausted and rule.match(request):
                    reply = rule.replies[min(rule.used, len(rule.replies) - 1)]
                    rule.used += 1
                    return reply
            if self.queue:
                return self.queue.pop(0)
            if self.default is not None:
                return self.default
        return Reply(content="fake_llm: script exhausted", status=500)

    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _handler_for(self)

    # answering ---------------------------------------------------------------------------------------
    def answer(self, request: Request) -> tuple[int, Reply]:
        with self._lock:
            self.requests.append(request)
        fmt = (request.get("response_format") or {}).get("type")
        if fmt == "json_schema" and not self.json_schema_supported:
            # Refused before any scripted answer is used, as a server without the feature would.
            return 400, Reply(content="response_format json_schema is not supported", status=400)
        reply = self._next_reply(request)
        if callable(reply):
            reply = reply(request)
        if isinstance(reply, str):
            reply = Reply(content=reply)
        if reply.delay:
            time.sleep(reply.delay)
        return reply.status, reply


def _completion(request: Request, reply: Reply) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content or None}
    if reply.tool_calls:
        message["tool_calls"] = [_tool_call_json(call, i) for i, call in enumerate(reply.tool_calls)]
    prompt = len(request_text(request)) // 4
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "fake-model"),
        "choices": [{"index": 0, "message": message, "finish_reason": _finish(reply)}],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": len(reply.content) // 4 + 1,
            "total_tokens": prompt + len(reply.content) // 4 + 1,
        },
    }


def _finish(reply: Reply) -> str:
    return reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")


def _tool_call_json(call: dict[str, Any], index: int) -> dict[str, Any]:
    arguments = call.get("arguments", {})
    return {
        "id": call.get("id") or f"call_{uuid.uuid4().hex[:10]}",
        "type": "function",
        "function": {
            "name": call["name"],
            "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
        },
    }


def stream_chunks(request: Request, reply: Reply) -> Iterable[dict[str, Any]]:
    base = {
        "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": request.get("model", "fake-model"),
    }
    yield {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]}
    for start in range(0, len(reply.content), 16):
        delta = {"content": reply.content[start : start + 16]}
        yield {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    for i, call in enumerate(reply.tool_calls):
        payload = _tool_call_json(call, i)
        payload["index"] = i
        yield {**base, "choices": [{"index": 0, "delta": {"tool_calls": [payload]}, "finish_reason": None}]}
    yield {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": _finish(reply)}]}
    # As OpenAI sends it: a last chunk, no choices.
    if reply.stream_usage and (request.get("stream_options") or {}).get("include_usage"):
        yield {**base, "choices": [], "usage": _completion(request, reply)["usage"]}


def _handler_for(fake: FakeLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # keep test output clean
            pass

        def _send_json(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            try:
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                return  # the client gave up waiting (its timeout, or its run ended): as a real server, no traceback

        def _send_cut(self, body: dict[str, Any], reply: Reply) -> None:
            data = json.dumps(body).encode()
            assert reply.cut is not None
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(reply.cut if reply.cut_length else len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data[: reply.cut])
            self.wfile.flush()
            self.close_connection = True

        def _send_raw(self, status: int, body: str | bytes, content_type: str) -> None:
            data = body.encode() if isinstance(body, str) else body
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _send_trickled(self, body: Any, pause: float) -> None:
            data = json.dumps(body).encode()
            head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
            self.close_connection = True
            for byte in head.encode() + data:
                if fake._server is None:  # stopped: end the answer rather than outlive the test
                    return
                try:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                except OSError:  # the client gave up waiting
                    return
                time.sleep(pause)

        def do_GET(self) -> None:
            if self.path in fake.trickle:
                self._send_trickled(fake.get_routes.get(self.path, {}), fake.trickle[self.path])
            elif self.path in fake.get_routes:
                self._send_json(200, fake.get_routes[self.path])
            elif self.path == "/api/version" and fake.ollama_num_ctx is not None:
                self._send_json(200, {"version": "0.12.0"})
            elif self.path.rstrip("/").endswith("/models"):
                data = [{"id": m, "object": "model", "owned_by": "fake_llm"} for m in fake.models]
                self._send_json(200, {"object": "list", "data": data})
            else:
                self._send_json(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:
            if self.path == "/api/show" and fake.ollama_num_ctx is not None:
                model = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")["model"]
                num_ctx = fake.ollama_num_ctx.get(model)
                self._send_json(200, {"parameters": f"num_ctx {num_ctx}" if num_ctx else "stop <|im_end|>"})
                return
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send_json(404, {"error": {"message": f"no route {self.path}"}})
                return
            length = int(self.headers.get("Content-Length") or 0)
            request = json.loads(self.rfile.read(length) or b"{}")
            status, reply = fake.answer(request)
            if reply.body is not None:
                self._send_raw(status, reply.body, reply.content_type)
                return
            if status != 200:
                self._send_json(status, {"error": {"message": reply.content, "type": "fake_llm", "code": status}})
                return
            if reply.cut is not None:
                self._send_cut(_completion(request, reply), reply)
                return
            if not request.get("stream") and not reply.stream:
                self._send_json(200, _completion(request, reply))
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            try:
                for chunk in stream_chunks(request, reply):
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    if reply.chunk_delay:
                        self.wfile.flush()
                        time.sleep(reply.chunk_delay)
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return  # the client stopped reading (its run ended or gave up): as a real server, no traceback

    return Handler
