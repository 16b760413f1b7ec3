"""The HTTP side of `slmcode serve`: the standard library's ThreadingHTTPServer, the guard on every request,
and the routes.

Why http.server and not starlette/uvicorn: it is always installed (those two only come with the dev extra),
a thread per connection is plenty for one local user, and a server-sent event stream is a loop writing to
the socket. Every response is HTML or text we rendered, with a Content-Security-Policy that allows only this
server's stylesheet and script, and no CORS headers at all.
"""

from __future__ import annotations

import contextlib
import importlib
import sqlite3
import sys
import threading
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from slmcode.errors import RunNotFoundError, SlmcodeError
from slmcode.store.trace import TraceStore
from slmcode.web import approval, chat, memory, patches, runs, stream, tasks
from slmcode.web.assets import LIVE_SCRIPT, STYLE
from slmcode.web.guard import Guard, new_token
from slmcode.web.html import esc, page

MAX_FORM_BYTES = 16_384
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    # The first URL holds the token: it must not leak to another site. (no-referrer would make the browser
    # send `Origin: null` with our own forms, which the guard refuses.)
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
}
STATIC = {"/static/style.css": ("text/css", STYLE), "/static/live.js": ("text/javascript", LIVE_SCRIPT)}
POST_ACTIONS = {
    "/patches/apply": ("id", patches.apply_one, "patches"),
    "/patches/reject": ("id", patches.reject_one, "patches"),
    "/memory/lessons/delete": ("id", memory.delete_lesson, "memory"),
    "/memory/skills/delete": ("name", memory.delete_skill, "memory"),
    "/memory/sessions/delete": ("id", memory.delete_session, "memory"),
}


@dataclass
class WebApp:
    workspace: Path
    guard: Guard
    store: TraceStore
    stopping: threading.Event


class Handler(BaseHTTPRequestHandler):
    server_version = "slmcode"
    sys_version = ""
    app: WebApp  # set on the subclass make_server builds

    def log_message(self, format: str, *args: object) -> None:
        pass  # no request log on the terminal: the URLs carry the token

    # -- the guard -------------------------------------------------------------------------------------

    def _admitted(self, query: dict[str, list[str]]) -> bool:
        guard = self.app.guard
        if not guard.host_ok(self.headers.get("Host")) or not guard.origin_ok(self.headers.get("Origin")):
            self._send(HTTPStatus.FORBIDDEN, "text/plain", "forbidden: this server answers only its own pages\n")
            return False
        from_url = (query.get("token") or [""])[0] or None
        if guard.matches(from_url) or guard.matches(guard.cookie_token(self.headers.get("Cookie"))):
            return True
        self._send(
            HTTPStatus.UNAUTHORIZED,
            "text/plain",
            "unauthorized: open the URL `slmcode serve` printed (it carries the token)\n",
        )
        return False

    # -- responses -------------------------------------------------------------------------------------

    def _send(self, status: int, kind: str, text: str, headers: dict[str, str] | None = None) -> None:
        body = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        for name, value in {**SECURITY_HEADERS, **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _html(self, html: str | None, status: int = HTTPStatus.OK) -> None:
        if html is None:
            self._not_found()
            return
        self._send(status, "text/html", html)

    def _not_found(self, what: str = "no such page") -> None:
        self._send(HTTPStatus.NOT_FOUND, "text/html", page("Not found", f"<h1>Not found</h1><p>{esc(what)}</p>"))

    # -- GET -------------------------------------------------------------------------------------------

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if not self._admitted(query):
            return
        if "token" in query:  # first visit: keep the token in a cookie and take it out of the address bar
            self.send_response(HTTPStatus.SEE_OTHER)
            self.send_header("Location", url.path or "/")
            self.send_header("Set-Cookie", self.app.guard.set_cookie())
            for name, value in SECURITY_HEADERS.items():
                self.send_header(name, value)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        try:
            self._route(url.path, query)
        except RunNotFoundError as exc:
            self._not_found(str(exc))
        except sqlite3.OperationalError as exc:  # e.g. a run creating the trace this very moment
            self._send(
                HTTPStatus.SERVICE_UNAVAILABLE,
                "text/html",
                page("Busy", f"<h1>The trace is busy</h1><p>{esc(exc)}: reload the page.</p>"),
            )
        except SlmcodeError as exc:  # a broken .slmcode file: its one line, as the CLI says it (was a traceback)
            self._send(
                HTTPStatus.INTERNAL_SERVER_ERROR,
                "text/html",
                page("Error", f"<h1>slmcode cannot show this</h1><p>{esc(exc)}</p>"),
            )

    do_HEAD = do_GET

    def _route(self, path: str, query: dict[str, list[str]]) -> None:
        app, parts = self.app, [unquote(p) for p in path.strip("/").split("/")] if path.strip("/") else []
        one = {k: v[0] for k, v in query.items()}
        if path in STATIC:
            kind, text = STATIC[path]
            self._send(HTTPStatus.OK, kind, text)
        elif not parts:
            self._html(runs.runs_list(app.store))
        elif parts == ["patches"]:
            self._html(patches.patches_page(app.workspace, app.guard.token))
        elif parts == ["memory"]:
            self._html(memory.memory_page(app.workspace, app.guard.token))
        elif parts == ["chat"]:
            self._html(chat.chat_page(app.workspace))
        elif len(parts) == 2 and parts[0] == "runs":
            self._run_page(parts[1])
        elif len(parts) == 3 and parts[0] == "runs" and parts[2] == "stream":
            self._stream(parts[1], one)
        elif len(parts) == 3 and parts[0] == "runs" and parts[2] == "pack" and one.get("role"):
            self._html(tasks.pack_page(app.store, parts[1], one["role"], one.get("task")))
        elif len(parts) == 4 and parts[0] == "runs" and parts[2] == "tasks":
            self._html(tasks.task_page(app.store, app.workspace, parts[1], parts[3]))
        else:
            self._not_found()

    def _run_page(self, run_id: str, message: str = "", status: int = HTTPStatus.OK) -> None:
        app = self.app
        try:
            row = app.store.run(run_id)
        except RunNotFoundError:
            self._not_found("no such run")
            return
        # A run that ended done or failed waits for nothing: only a stopped one may wait at its plan (asking
        # its checkpoint costs tens of ms a view, which 200 clients at once turn into seconds).
        ended = row.status in ("done", "failed") and not message and not approval.resuming(app.workspace, row.run_id)
        plan = "" if ended else approval.approval_html(app.workspace, row.run_id, app.guard.token, message)
        self._html(runs.run_page(app.store, row.run_id, plan), status)

    def _stream(self, run_id: str, query: dict[str, str]) -> None:
        run_id = self.app.store.run(run_id).run_id
        last = self.headers.get("Last-Event-ID") or query.get("after") or "0"
        after = int(last) if last.isdigit() else 0
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        self.close_connection = True

        def send(text: str) -> None:
            self.wfile.write(text.encode("utf-8"))
            self.wfile.flush()

        with contextlib.suppress(OSError):  # the browser left
            stream.follow(self.app.store, run_id, after, send, stop=self.app.stopping.is_set)

    # -- POST ------------------------------------------------------------------------------------------

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        if not self._admitted({}):
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_FORM_BYTES:
            self._send(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "text/plain", "form too large\n")
            return
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode("utf-8", "replace")).items()}
        # The cookie alone is not enough to change something: the form must carry the token too.
        if not self.app.guard.matches(form.get("token")):
            self._send(HTTPStatus.FORBIDDEN, "text/plain", "forbidden: the form's token is missing or wrong\n")
            return
        parts = [unquote(p) for p in url.path.strip("/").split("/")]
        if len(parts) == 4 and parts[0] == "runs" and parts[2] == "plan" and parts[3] in ("drop", "approve"):
            done = (
                approval.drop_task(self.app.workspace, parts[1], form.get("task", ""))
                if parts[3] == "drop"
                else approval.approve(self.app.workspace, parts[1])
            )
            self._run_page(parts[1], done[0], HTTPStatus.CONFLICT if done[1] else HTTPStatus.OK)
            return
        action = POST_ACTIONS.get(url.path)
        if action is None:
            self._not_found()
            return
        field, act, shown = action
        message, failed = act(self.app.workspace, form.get(field, ""))
        status = HTTPStatus.CONFLICT if failed else HTTPStatus.OK
        render = patches.patches_page if shown == "patches" else memory.memory_page
        self._html(render(self.app.workspace, self.app.guard.token, message, failed), status)


class WebServer(ThreadingHTTPServer):
    """A thread per connection, with a listen backlog sized for a page that opens many connections at once
    (the standard library's 5 makes the kernel drop the rest, and each dropped client waits seconds to retry)."""

    request_queue_size = 1024
    daemon_threads = True  # a live stream never keeps the process from exiting

    def handle_error(self, request: object, client_address: object) -> None:
        # A client that went away (a closed tab, a reload) is not an error of the server: no traceback.
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


def make_server(workspace: Path, port: int = 0, token: str | None = None, host: str = "127.0.0.1") -> WebServer:
    """A server bound to (host, port); port 0 picks a free one. Its URL with the token: `server_url(server)`."""
    root = Path(workspace).resolve()
    app = WebApp(root, Guard(token or new_token(), port), TraceStore.for_workspace(root), threading.Event())
    handler = type("BoundHandler", (Handler,), {"app": app})
    server = WebServer((host, port), handler)
    app.guard = Guard(app.guard.token, server.server_address[1])  # the real port, once bound
    server.app = app  # type: ignore[attr-defined]
    # A run page asks the run's checkpoint whether its plan waits for approval, which needs the graph's
    # modules (about 2 s to import on a small machine): imported now, while the user opens the URL.
    threading.Thread(target=importlib.import_module, args=("slmcode.run_board",), daemon=True).start()
    return server


def server_url(server: ThreadingHTTPServer) -> str:
    host, port = server.server_address[:2]
    return f"http://{host!s}:{port!s}/?token={server.app.guard.token}"  # type: ignore[attr-defined]
