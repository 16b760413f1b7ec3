"""`slmcode doctor`: a readiness score, the exact command for each failing check, and `--fix` for the safe
ones, against a scripted server posing as Ollama (its /api/version and /api/show answer as Ollama's do)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from slmcode import readiness
from tests.fake_llm import FakeLLM
from tests.test_cli import slmcode

MODEL = "qwen2.5-coder:7b"  # the 7b size bucket: profile window 8,192


@pytest.fixture
def ollama(fake_llm: FakeLLM) -> FakeLLM:
    fake_llm.models = [MODEL]
    fake_llm.ollama_num_ctx = {MODEL: None}  # no num_ctx in the Modelfile: Ollama's default applies
    return fake_llm


def doctor(server: FakeLLM, workspace: Path, *flags: str) -> dict:
    result = slmcode(
        "doctor", "--base-url", server.url, "--model", MODEL, "--workspace", str(workspace), "--json", *flags
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def check(report: dict, name: str) -> dict:
    return next(c for c in report["checks"] if c["name"] == name)


def test_a_small_ollama_window_is_named_with_the_exact_commands_that_raise_it(ollama: FakeLLM, tmp_path: Path) -> None:
    report = doctor(ollama, tmp_path)
    window = check(report, "window")
    assert not window["ok"] and "Ollama keeps 4096 tokens" in window["detail"]
    assert "OLLAMA_CONTEXT_LENGTH=8192 ollama serve" in window["advice"]
    assert "PARAMETER num_ctx 8192" in window["advice"]
    assert report["readiness"]["passed"] < report["readiness"]["total"]
    assert not (tmp_path / ".slmcode" / "config.yaml").exists()  # without --fix nothing is written


def test_doctor_fix_sizes_requests_to_the_real_window_and_writes_the_modelfile(ollama: FakeLLM, tmp_path: Path) -> None:
    (tmp_path / ".slmcode").mkdir()
    (tmp_path / ".slmcode" / "config.yaml").write_text("max_parallel: 2\n")
    before = doctor(ollama, tmp_path)
    report = doctor(ollama, tmp_path, "--fix")
    assert len(report["fixed"]) == 1 and "context_limit: 4096" in report["fixed"][0]
    config = yaml.safe_load((tmp_path / ".slmcode" / "config.yaml").read_text())
    assert config == {"max_parallel": 2, "context_limit": 4096}  # the user's other keys kept
    assert (tmp_path / ".slmcode" / "Modelfile").read_text() == f"FROM {MODEL}\nPARAMETER num_ctx 8192\n"
    assert check(report, "window")["ok"]  # checked again after the fix
    assert report["profile"]["context_limit"] == 4096
    assert report["readiness"]["passed"] == before["readiness"]["passed"] + 1


def test_the_text_report_gives_the_fix_and_the_score(ollama: FakeLLM, tmp_path: Path) -> None:
    result = slmcode("doctor", "--base-url", ollama.url, "--model", MODEL, "--workspace", str(tmp_path))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any(line.startswith("warning: Ollama keeps 4096 tokens") for line in lines)
    assert any("`slmcode doctor --fix` would set context_limit: 4096" in line for line in lines)
    assert lines[-1].startswith("readiness ") and "checks pass" in lines[-1]


def test_a_listed_model_and_a_large_enough_window_pass(ollama: FakeLLM, tmp_path: Path) -> None:
    ollama.ollama_num_ctx = {MODEL: 16384}
    report = doctor(ollama, tmp_path)
    assert check(report, "window")["ok"] and check(report, "model")["ok"]
    assert report["fixed"] == []


def test_a_model_ollama_lacks_is_told_to_pull_it(ollama: FakeLLM, tmp_path: Path) -> None:
    ollama.models = ["llama3.2:3b"]
    model = check(doctor(ollama, tmp_path), "model")
    assert not model["ok"] and model["advice"] == f"ollama pull {MODEL}"


@pytest.mark.skipif(shutil.which("go") is not None, reason="go is installed here")
def test_a_missing_pack_program_gets_its_install_line(ollama: FakeLLM, tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/m\n\ngo 1.22\n")
    (tmp_path / "main.go").write_text("package main\n\nfunc main() {}\n")
    test = check(doctor(ollama, tmp_path), "test")
    assert not test["ok"] and "go is not installed" in test["detail"]
    assert test["advice"] == "install Go (https://go.dev/dl)"


def test_a_python_module_the_test_command_needs_is_looked_up_without_importing_it(tmp_path: Path) -> None:
    missing = readiness.program("test", "python3 -m no_such_module_here -q", tmp_path)
    assert not missing.ok
    assert missing.advice == "pip install no_such_module_here"
    assert readiness.program("test", "python3 -m json.tool", tmp_path).ok
