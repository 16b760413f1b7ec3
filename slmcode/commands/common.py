"""What every command shares: the consoles, the common options, JSON output and settings loading."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from slmcode.errors import SlmcodeError, WorkspaceError
from slmcode.store.paths import state_dir

if TYPE_CHECKING:
    from slmcode.config import LoadedSettings

console = Console()
err_console = Console(stderr=True)


def existing_workspace(path: Path) -> Path:
    """Every command's -w: an existing folder, never created (a typo must not become a new workspace)."""
    resolved = path.expanduser().resolve()
    if not resolved.exists():
        raise WorkspaceError(f"workspace {resolved} does not exist")
    if not resolved.is_dir():
        raise WorkspaceError(f"workspace {resolved} is a file, not a folder")
    state_dir(resolved)  # a .slmcode that is a link is refused here, before any command reads or writes it
    return path


WorkspaceOpt = Annotated[
    Path, typer.Option("--workspace", "-w", help="The repository to work on.", callback=existing_workspace)
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
ModelOpt = Annotated[str | None, typer.Option("--model", help="Model name as the server knows it.")]
BaseUrlOpt = Annotated[str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint, e.g. .../v1.")]


def print_json(data: Any) -> None:
    # Plain stdout, not Rich: JSON must stay machine-readable (no wrapping, no markup).
    sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")


def positive(value: Any, flag: str, unit: str) -> Any:
    """A number flag that must be above zero (a budget, a count, seconds), or unset; else one line naming it."""
    if value is not None and value <= 0:
        shown = f"{value:g}" if isinstance(value, float) else value  # as typed: 0, not 0.0
        raise SlmcodeError(f"{flag}: expected a positive number of {unit}, got {shown}")
    return value


def settings_for(workspace: Path, *, quiet: bool = False, **flags: Any) -> LoadedSettings:
    """The settings a command uses; an untrusted workspace's ignored settings are said once per command."""
    # Settings are pydantic models (0.1 s to build): loaded by the commands that read them, not by `--help`.
    from slmcode.config import load_settings

    loaded = load_settings(workspace, flags={k: v for k, v in flags.items() if v is not None})
    if loaded.ignored and not quiet:
        warn_untrusted(workspace, loaded.ignored)
    return loaded


_WARNED: set[str] = set()  # a command loads its settings several times: the line is said once


def warn_untrusted(workspace: Path, ignored: list[str]) -> None:
    from slmcode.trust import untrusted_line

    line = untrusted_line(workspace, ignored)
    if line not in _WARNED:
        _WARNED.add(line)
        err_console.print(f"[yellow]warning:[/yellow] {escape(line)}", highlight=False, soft_wrap=True)


def trust_status(workspace: Path, loaded: LoadedSettings) -> str:
    """`config show` and `doctor`'s line: whether the workspace's own widening settings apply."""
    from slmcode.config import TRUSTED
    from slmcode.trust import untrusted_line

    if loaded.ignored:
        return f"workspace trust: {untrusted_line(workspace, loaded.ignored)}"
    if loaded.trust == TRUSTED:
        return f"workspace trust: trusted ({workspace.resolve()}: its own widening settings apply)"
    return f"workspace trust: {loaded.trust} ({workspace.resolve()}: its .slmcode/ widens nothing)"
