"""Runs llama.cpp's OpenAI-compatible server as a child that dies with its parent.

`python -m slmcode.providers.llama_launcher PARENT_PID <server args...>` starts a watchdog thread, then
llama_cpp.server's own main(). The parent's context manager stops the server on every exit it sees; the
watchdog covers the exits it cannot see (SIGKILL, an unhandled SIGTERM), so no server is ever orphaned.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import types

POLL_SECONDS = 0.5


def watch_parent(parent_pid: int) -> None:
    """Exit hard once the parent is gone: re-parenting changes our ppid."""
    while os.getppid() == parent_pid:
        time.sleep(POLL_SECONDS)
    os._exit(0)  # uvicorn's graceful shutdown may wait on open connections; nobody is left to serve


def plain_text_chat_templates() -> None:
    """Stop llama-cpp-python's chatml-function-calling template from HTML-escaping every message.

    Its jinja environment autoescapes string templates, so the model read code as `a &lt; b` and quotes as
    `&#34;`, and copied `&#34;` into the arguments of its next tool call. A prompt is not HTML.
    """
    import jinja2
    from llama_cpp import llama_chat_format

    no_autoescape = {**vars(jinja2), "select_autoescape": lambda *args, **kwargs: False}
    llama_chat_format.jinja2 = types.SimpleNamespace(**no_autoescape)  # type: ignore[attr-defined,assignment]


def no_extra_buffer_types() -> None:
    """Load weights without llama.cpp's extra CPU buffer types (AMX / repacked quant layouts).

    On these machines (AMX-capable Xeons, llama-cpp-python 0.3.36 built from source) every prompt of more than
    one token made the server segfault inside the repacked matmul: the run only saw "connection refused".
    The plain layout costs little on a 135M model.
    """
    import llama_cpp
    from llama_cpp import llama as llama_module

    default = llama_cpp.llama_model_default_params

    def params():  # type: ignore[no-untyped-def]
        value = default()
        if hasattr(value, "use_extra_bufts"):
            value.use_extra_bufts = False
        return value

    llama_module.llama_cpp.llama_model_default_params = params  # type: ignore[attr-defined]


def main(argv: list[str]) -> None:
    if not argv or not argv[0].isdigit():
        raise SystemExit("usage: python -m slmcode.providers.llama_launcher PARENT_PID [server args...]")
    parent_pid = int(argv[0])
    if os.getppid() != parent_pid:  # the parent died before we got here
        raise SystemExit(0)
    threading.Thread(target=watch_parent, args=(parent_pid,), name="parent-watchdog", daemon=True).start()
    plain_text_chat_templates()
    no_extra_buffer_types()
    from llama_cpp.server.__main__ import main as serve

    sys.argv = ["llama_cpp.server", *argv[1:]]
    serve()


if __name__ == "__main__":
    main(sys.argv[1:])
