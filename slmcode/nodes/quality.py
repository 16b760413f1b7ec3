"""The project's quality commands (install, test, lint, build): from the active language pack's quality
block, else a small detection of the common cases, so a run always has a test command."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from langgraph.runtime import Runtime

from slmcode.blocks.schema import QualityGates
from slmcode.run_context import RunContext


@dataclass(frozen=True)
class Quality:
    test: str | None = None
    install: str | None = None
    lint: str | None = None
    build: str | None = None
    extra: tuple[str, ...] = field(default_factory=tuple)

    def commands(self) -> list[str]:
        """Every command the shell whitelist must admit for this project."""
        return [c for c in (self.test, self.install, self.lint, self.build, *self.extra) if c]


def _detected(workspace: Path) -> Quality:
    if (workspace / "go.mod").is_file():
        return Quality(test="go test ./...", build="go build ./...")
    if (workspace / "Cargo.toml").is_file():
        return Quality(test="cargo test", build="cargo build")
    if (workspace / "package.json").is_file():
        return Quality(test="npm test", install="npm install")
    return Quality(test="python -m pytest -q")


def quality_of(runtime: Runtime[RunContext]) -> Quality:
    """The active language pack's commands (project blocks first), else the detected defaults."""
    workspace = Path(runtime.context.workspace).resolve()
    block = runtime.context.resolved_pipeline().quality
    if block is None or not block.test:
        return _detected(workspace)
    return Quality(
        test=_first(block.test),
        install=_first(block.install),
        lint=_first(block.lint),
        build=_first(block.build),
        extra=(*block.test[1:], *block.format),
    )


def _first(commands: list[str]) -> str | None:
    return commands[0] if commands else None


def gates_of(runtime: Runtime[RunContext]) -> QualityGates:
    """The quality gates the active quality block switches on; the defaults without one."""
    block = runtime.context.resolved_pipeline().quality
    return block.gates if block is not None else QualityGates()
