"""`slmcode trust [PATH]`, `slmcode trust --list`, `slmcode trust --revoke PATH`: the workspaces whose own
widening settings (sandbox, shell, endpoints, keys, MCP servers, hooks, quality and slot commands) apply
(slmcode.trust says which settings those are and why)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from slmcode.commands.common import JsonOpt, console, existing_workspace, print_json, settings_for
from slmcode.errors import SlmcodeError

app = typer.Typer()


@app.command("trust")
def trust_command(
    path: Annotated[
        Path | None, typer.Argument(help="The workspace to trust (default: this folder).", show_default=False)
    ] = None,
    show_list: Annotated[bool, typer.Option("--list", help="List the trusted workspaces.")] = False,
    revoke: Annotated[
        Path | None, typer.Option("--revoke", help="Stop trusting this workspace.", show_default=False)
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Trust a workspace's own .slmcode/ settings that widen what commands may do or where data goes."""
    if sum((path is not None, show_list, revoke is not None)) > 1:
        raise SlmcodeError("give one of PATH, --list or --revoke PATH")
    if show_list:
        _list(as_json)
    elif revoke is not None:
        _revoke(revoke, as_json)
    else:
        _trust(existing_workspace(path or Path(".")), as_json)


def _trust(workspace: Path, as_json: bool) -> None:
    from slmcode import trust

    settings_for(workspace, quiet=True)  # a broken config or block is one line here, never trusted as it is
    _check_blocks(workspace)
    entry = trust.trust_workspace(workspace)
    if as_json:
        print_json({"folder": entry.folder, "digest": entry.digest, "trusted": list(entry.trusted)})
        return
    if not entry.trusted:
        console.print(
            f"trusted {escape(entry.folder)}: its .slmcode/ asks for nothing that needs trust now; a "
            "widening setting added later asks again",
            highlight=False,
            soft_wrap=True,
        )
        return
    console.print(
        f"trusted {escape(entry.folder)}; these of its .slmcode/ settings now apply:", highlight=False, soft_wrap=True
    )
    for line in entry.trusted:
        console.print(f"  {escape(line)}", highlight=False, soft_wrap=True)
    console.print("A change to any of them asks again (`slmcode trust --revoke PATH` forgets it).", highlight=False)


def _check_blocks(workspace: Path) -> None:
    from slmcode.blocks.discovery import PROJECT_BLOCKS
    from slmcode.blocks.loader import validate_path

    folder = workspace / PROJECT_BLOCKS
    if folder.is_dir():
        _, errors = validate_path(folder)
        if errors:
            raise SlmcodeError(f"{errors[0]} (fix it before trusting the workspace)")


def _list(as_json: bool) -> None:
    from slmcode import trust
    from slmcode.store import trustbook

    rows: list[dict[str, Any]] = []
    for entry in trustbook.entries().values():
        folder = Path(entry.folder)
        state = (
            "folder gone"
            if not folder.is_dir()
            else "trusted"
            if trust.is_trusted(folder)
            else "changed since (asks again)"
        )
        rows.append(
            {"folder": entry.folder, "state": state, "trusted_at": entry.trusted_at, "trusted": list(entry.trusted)}
        )
    if as_json:
        print_json(rows)
        return
    if not rows:
        console.print("No trusted workspaces (`slmcode trust PATH` trusts one).")
    for row in rows:
        console.print(
            f"{escape(row['folder'])}  {row['state']}  (since {row['trusted_at']})", highlight=False, soft_wrap=True
        )


def _revoke(path: Path, as_json: bool) -> None:
    from slmcode.store import trustbook

    gone = trustbook.revoke(path.expanduser())
    if gone is None:
        raise SlmcodeError(f"{trustbook.folder_key(path.expanduser())} is not trusted (`slmcode trust --list`)")
    if as_json:
        print_json({"revoked": gone.folder})
        return
    console.print(f"no longer trusted: {escape(gone.folder)}", highlight=False, soft_wrap=True)
