"""`slmcode serve`: the web view of the workspace's runs, packs, pending patches and memory, on loopback."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from slmcode.commands.common import WorkspaceOpt, console, settings_for
from slmcode.errors import SlmcodeError

app = typer.Typer()


@app.command()
def serve(
    workspace: WorkspaceOpt = Path("."),
    port: Annotated[int, typer.Option("--port", help="Port on 127.0.0.1 (0: any free port).")] = 8765,
) -> None:
    """Serve a web view of the runs on 127.0.0.1; open the printed URL (it carries the access token)."""
    from slmcode.web.server import make_server, server_url

    settings_for(workspace)  # a broken config is one line here; an untrusted workspace's ignored settings too
    if not 0 <= port <= 65535:
        raise SlmcodeError(f"--port: expected a port from 0 to 65535 (0: any free port), got {port}")
    try:
        server = make_server(workspace, port)
    except OSError as exc:
        raise SlmcodeError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc} (try --port 0)") from None
    console.print(
        f"slmcode web view of {Path(workspace).resolve()}\n  {server_url(server)}\nCtrl-C stops it.",
        highlight=False,
        soft_wrap=True,
    )
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.app.stopping.set()  # type: ignore[attr-defined]
        server.server_close()
