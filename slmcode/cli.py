"""The `slmcode` command line: parse, call the API or the packs, render with Rich.

Thin on purpose: the commands live in slmcode/commands/, one module per group. Whatever goes wrong ends as
one line on stderr naming what and where, never a traceback (unless --debug): a user's mistake or a broken
environment (SlmcodeError, a full disk, a read-only folder, a broken database) exits with code 2, a defect of
slmcode itself with code 3, Ctrl-C with 130. A run that stops this way keeps its checkpoint for `resume`.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import traceback
from typing import Annotated

import typer
from rich.markup import escape

from slmcode.commands import board as board_commands
from slmcode.commands import chat, context, doctor, gitops, knowledge, model, patches, runs, serve, trust
from slmcode.commands import eval as evaluation
from slmcode.commands import mcp as mcp_commands
from slmcode.commands.common import err_console
from slmcode.commands.helptext import clean_help_types
from slmcode.errors import SlmcodeError, os_error_line

DEBUG_FLAG = "--debug"
DEBUG_ENV = "SLMCODE_DEBUG"
EXIT_ENVIRONMENT = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130

clean_help_types()  # `--model MODEL`, not `--model <str>`
app = typer.Typer(help="A coding-agent harness for small language models.", no_args_is_help=True)
for group in (runs, chat, model, doctor, context, patches, knowledge, evaluation, serve, gitops, mcp_commands, trust):
    app.add_typer(group.app)
app.add_typer(board_commands.app)  # board, task edit|drop|add


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            shown = version("slmcode")
        except PackageNotFoundError:  # run from a source tree that was never installed
            shown = "unknown (not installed)"
        sys.stdout.write(f"slmcode {shown}\n")
        raise typer.Exit()


@app.callback()
def _options(
    debug: Annotated[bool, typer.Option(DEBUG_FLAG, help="Show the full traceback when something fails.")] = False,
    show_version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", is_eager=True, callback=_print_version)
    ] = False,
) -> None:
    """A coding-agent harness for small language models."""


def _fail(message: str, code: int, debug: bool) -> None:
    if debug:
        traceback.print_exc()
    err_console.print(f"[red]error:[/red] {escape(message)}", highlight=False, soft_wrap=True)
    raise SystemExit(code) from None


def environment_error(exc: OSError) -> str:
    """An OSError as one line: what failed and on which path."""
    return os_error_line(exc)


def main() -> None:
    # --debug works anywhere on the line (`slmcode run --debug ...` too): taken out before typer parses.
    debug = DEBUG_FLAG in sys.argv[1:] or os.environ.get(DEBUG_ENV, "") not in ("", "0")
    sys.argv = [sys.argv[0], *(a for a in sys.argv[1:] if a != DEBUG_FLAG)]
    try:
        app()
    except SlmcodeError as exc:
        _fail(str(exc), exc.exit_code, debug)
    except KeyboardInterrupt:
        _fail("interrupted (`slmcode resume` continues a run from its last checkpoint)", EXIT_INTERRUPTED, debug)
    except OSError as exc:
        _fail(environment_error(exc), EXIT_ENVIRONMENT, debug)
    except sqlite3.Error as exc:
        _fail(f"a database in .slmcode failed: {exc}", EXIT_ENVIRONMENT, debug)
    except Exception as exc:
        first = (str(exc).strip().splitlines() or [""])[0][:200]
        _fail(
            f"internal error: {type(exc).__name__}: {first} (run again with --debug for the traceback)",
            EXIT_INTERNAL,
            debug,
        )
