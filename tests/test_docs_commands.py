"""The manual cannot name a command or a flag slmcode does not have: every `slmcode ...` line in README.md,
CONTRIBUTING.md and docs/*.md (shell blocks and inline code) is read against the real command line's tree, and
each subcommand and option it names must exist there. A renamed flag fails here, not in a reader's terminal."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import typer.main

from slmcode.cli import app
from tests.test_docs_manual import pages

# `slmcode` as a program name (`slmcode run`, `.venv/bin/slmcode run`), not the package (`slmcode/`, `slmcode[x]`).
COMMAND = re.compile(r"(?:^|(?<=[\s(/]))slmcode((?: +[^ &|;#`<>\n]+)*)")
SHELL_FENCE = re.compile(r"^```(?:bash|sh|console)?\n(.*?)^```", re.S | re.M)


def commands_in(page: Path) -> list[str]:
    """The argument text after each `slmcode` a page shows as something to type."""
    text = page.read_text(encoding="utf-8")
    code = [block for block in SHELL_FENCE.findall(text)]
    prose = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    code += re.findall(r"`([^`\n]+)`", prose)
    return [match.group(1) for snippet in code for match in COMMAND.finditer(snippet)]


def problem(root: Any, args: str) -> str | None:
    """Why `slmcode ARGS` names something the command line lacks, or None."""
    words = [w.strip("[]()\\") for w in args.split()]
    command = root  # typer's own click: a group is a command with `commands`
    path = ["slmcode"]
    while hasattr(command, "commands") and words and not words[0].startswith("-"):
        name = words[0].split("|")[0]
        if name not in command.commands:
            return None if command is root else f"{' '.join(path)} has no subcommand {name!r}"
        command, path = command.commands[name], [*path, name]
        words = words[1:]
    if command is root and not words:
        return None
    known = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)} | {"--help"}
    if command is root:
        known |= {"--version", "--debug"}
    flags = {w.split("=")[0] for w in words if re.fullmatch(r"--?[a-z][a-z0-9-]*(=.*)?", w)}
    unknown = sorted(flags - known - {"--debug"})
    return f"{' '.join(path)} has no option {', '.join(unknown)}" if unknown else None


def test_every_documented_command_and_flag_exists() -> None:
    root = typer.main.get_command(app)
    found = [(page, args) for page in pages() for args in commands_in(page)]
    assert len(found) > 50, "the documented commands were not found: the pattern no longer reads the pages"
    wrong = [f"{page.name}: slmcode{args}: {why}" for page, args in found if (why := problem(root, args))]
    assert not wrong, "\n".join(wrong)


def test_a_renamed_flag_is_caught() -> None:
    root = typer.main.get_command(app)
    assert problem(root, " run --approve plan TASK") is None
    assert problem(root, " run --aprove plan TASK") == "slmcode run has no option --aprove"
    assert problem(root, " task drop RUN r1t2") is None
    assert problem(root, " task remove RUN r1t2") == "slmcode task has no subcommand 'remove'"
