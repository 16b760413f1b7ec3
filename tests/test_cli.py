"""The foundation's commands as a user runs them: one line and exit 2 for their mistakes."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fake_llm import FakeLLM

# The command line in a fresh process on purpose: start-up and exit codes as a shell sees them.
pytestmark = pytest.mark.slow

SNIPPET = "def hello(name):\n    return f'hi {name}'\n"


def slmcode(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from slmcode.cli import main; main()", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def test_tokens_counts_the_snippet_with_cl100k_offline() -> None:
    result = slmcode("tokens", SNIPPET, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["tokens"] == 12
    assert data["counter"].startswith("cl100k_base")


def test_budget_json_follows_the_formula_with_the_7b_bucket() -> None:
    data = json.loads(slmcode("budget", "--model", "qwen2.5-coder:7b", "--json").stdout)
    assert data["context_limit"] == 8192
    after_reserves = 8192 - 500 - 900 - 2048
    assert data["slack"] == int(after_reserves * 0.10)
    assert data["available"] == int((after_reserves - data["slack"]) * 1.0) == 4270


def test_a_broken_config_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / ".slmcode").mkdir()
    (tmp_path / ".slmcode" / "config.yaml").write_text("max_parallel: [1\n")
    result = slmcode("config", "show", "-w", str(tmp_path))
    assert result.returncode == 2
    assert "config.yaml" in result.stderr and "broken YAML" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_a_wrong_type_names_the_file_the_key_and_the_expectation(tmp_path: Path) -> None:
    (tmp_path / ".slmcode").mkdir()
    (tmp_path / ".slmcode" / "config.yaml").write_text("max_parallel: lots\n")
    result = slmcode("config", "show", "-w", str(tmp_path))
    assert result.returncode == 2
    assert "key 'max_parallel': expected a valid integer" in result.stderr


def test_config_show_names_the_source_of_each_value(tmp_path: Path) -> None:
    (tmp_path / ".slmcode").mkdir()
    (tmp_path / ".slmcode" / "config.yaml").write_text("max_parallel: 1\n")
    data = json.loads(slmcode("config", "show", "-w", str(tmp_path), "--json").stdout)
    assert data["settings"]["max_parallel"] == 1
    assert data["sources"]["max_parallel"].endswith(".slmcode/config.yaml")
    assert data["sources"]["max_retries"] == "default"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_an_unreachable_endpoint_is_one_line_and_exit_2() -> None:
    result = slmcode("doctor", "--base-url", f"http://127.0.0.1:{free_port()}/v1", "--model", "m")
    assert result.returncode == 2
    assert "is unreachable (connection refused)" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_doctor_lists_models_profile_budget_and_counter(fake_llm: FakeLLM) -> None:
    result = slmcode("doctor", "--base-url", fake_llm.url, "--model", "qwen2.5-coder:7b", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["models"] == ["fake-model"]
    assert report["profile"]["context_limit"] == 8192 and report["profile"]["context_source"] == "size bucket 7b"
    assert report["budget"]["available"] == 4270
    assert report["token_counter"].startswith("cl100k_base")
    assert any("does not list model" in w for w in report["warnings"])
