"""The `slmcode` command line: parse, call the API or the packs, render with Rich.

Thin on purpose: the commands live in slmcode/commands/, one module per group. A user's mistake raises
SlmcodeError somewhere below; `main` prints it as one line and exits with code 2.
"""

from __future__ import annotations

import typer

from slmcode.commands import context, knowledge, model, patches, runs
from slmcode.commands import eval as evaluation
from slmcode.commands.common import err_console
from slmcode.errors import SlmcodeError

app = typer.Typer(help="A coding-agent harness for small language models.", no_args_is_help=True)
for group in (runs, model, context, patches, knowledge, evaluation):
    app.add_typer(group.app)


def main() -> None:
    try:
        app()
    except SlmcodeError as exc:
        err_console.print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
        raise SystemExit(exc.exit_code) from None
