"""The project's quality commands (install, test, lint, build): from the active language pack when the
building blocks name one, else a small detection of the common cases, so a run always has a test command."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from slmcode.config import Settings


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


def quality_for(workspace: Path, settings: Settings) -> Quality:
    return _detected(workspace)
