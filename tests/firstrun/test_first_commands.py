"""A newcomer's first commands: no server running, the version, the runs' ids."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

from tests.graph.scenario import make_repo


def slmcode(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from slmcode.cli import main; main()", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        env={"COLUMNS": "60", "PATH": "/usr/bin:/bin", "HOME": str(cwd or Path.cwd())},
    )


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_run_with_no_server_listening_is_one_line_with_a_hint_and_leaves_no_interrupted_run(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path)
    url = f"http://127.0.0.1:{closed_port()}/v1"
    assert slmcode("trust", str(repo), cwd=tmp_path).returncode == 0  # as README's demo does first
    result = slmcode(
        "run", "Add a divide operation", "-w", str(repo), "--base-url", url, "--model", "m", "--yes", cwd=tmp_path
    )
    assert result.returncode == 2, result.stderr
    error = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(error) == 1 and error[0].startswith(f"error: the model server at {url} is unreachable"), error
    assert "connection refused" in error[0] and "ollama serve" in error[0]
    runs = json.loads(slmcode("status", "-w", str(repo), "--json", cwd=tmp_path).stdout)
    assert [r["status"] for r in runs] == ["failed"] and "ollama serve" in runs[0]["outcome"]
    # and the status table shows the whole run id, even on a narrow terminal
    assert runs[0]["run_id"] in slmcode("status", "-w", str(repo), cwd=tmp_path).stdout


def test_version() -> None:
    result = slmcode("--version")
    assert result.returncode == 0 and result.stdout.startswith("slmcode 0.")


def test_a_model_slower_than_request_timeout_is_named_slow_not_unreachable(tmp_path: Path) -> None:
    import pytest

    from slmcode import api
    from slmcode.errors import EndpointError
    from slmcode.nodes.prompts import SYSTEM
    from tests.fake_llm import FakeLLM, Reply

    repo = make_repo(tmp_path)
    with FakeLLM() as fake:
        fake.on(SYSTEM["clarify"], Reply(content="{}", delay=3))
        with pytest.raises(EndpointError, match=r"the model did not answer within request_timeout"):
            api.run(
                "Add a divide operation",
                repo,
                base_url=fake.url,
                model="qwen2.5-coder:7b",
                request_timeout=1,
                request_retries=0,
            )
