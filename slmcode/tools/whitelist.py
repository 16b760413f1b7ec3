"""The shell whitelist: which programs may run, with which arguments, reading and writing where.

This is the friendly first layer, not the wall (the OS sandbox in ossandbox.py is): it tells a model in one
line what it may run, before anything starts. A command line is allowed only when every part of it is: each
command in each pipeline starts with a whitelisted prefix (the language pack's programs, read-only git, a few
safe utilities), names no path outside the workspace, uses none of the flags that make a listed program write
files, read a list of other files or run programs, and redirects only to /dev/null, between its own streams, or
from a file inside the workspace. Files are written by ws_write and ws_edit, so edits meet the permission layer.
"""

from __future__ import annotations

import glob as globlib
import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from slmcode.environment.containment import Refusal, resolve_path
from slmcode.tools.shellparse import Command, ParseRefusal, Redirect, Step, parse

SAFE_UTILITIES = (
    "ls",
    "cat",
    "head",
    "tail",
    "wc",
    "grep",
    "rg",
    "find",
    "echo",
    "pwd",
    "sort",
    "uniq",
    "diff",
    "cut",
    "tr",
    "true",
    "false",
    "stat",
    "file",
    "tree",
    "basename",
    "dirname",
    "which",
)
GIT_READ_ONLY = ("status", "diff", "log", "show", "blame", "ls-files", "grep", "rev-parse", "describe", "shortlog")
# Arguments that make a listed program write files or run other programs: (long prefixes, short letters).
# Following symlinks while recursing would read outside the workspace, so those flags are refused too.
FORBIDDEN_ARGS: dict[str, tuple[tuple[str, ...], str]] = {
    "find": (
        (
            "-exec",
            "-execdir",
            "-ok",
            "-okdir",
            "-delete",
            "-fprint",
            "-fprint0",
            "-fprintf",
            "-fls",
            "-L",
            "-H",
            "-follow",
            "-files0-from",
        ),
        "",
    ),
    "rg": (("--pre", "--follow", "-L", "--files-from"), ""),
    "grep": (("--dereference-recursive", "--file"), "Rf"),
    "sort": (("--output", "--compress-program", "--files0-from", "--temporary-directory"), "oT"),
    "wc": (("--files0-from",), ""),
    "tree": (("-o", "-l", "--fromfile"), ""),
    "diff": (("--from-file", "--to-file", "--dereference"), ""),
    "git": (("--output", "--open-files-in-pager", "--ext-diff", "-O", "--textconv", "--exec", "--upload-pack"), ""),
    "pytest": (
        (
            "--basetemp",
            "--junitxml",
            "--junit-xml",
            "--report-log",
            "--resultlog",
            "--rootdir",
            "--confcutdir",
            "--override-ini",
            "-p",
            "--pyargs",
            "--debug",
        ),
        "o",
    ),
}
# Programs whose second positional argument is a file they write (`uniq IN OUT`).
WRITES_SECOND_OPERAND = ("uniq",)
# Runners whose subcommand is part of what is allowed (`cargo test`, not `cargo install`).
SUBCOMMAND_PROGRAMS = (
    "go",
    "cargo",
    "npm",
    "npx",
    "pnpm",
    "yarn",
    "dotnet",
    "mvn",
    "gradle",
    "pip",
    "bundle",
    "swift",
    "composer",
    "ruff",
    "mix",
    "gradlew",
    "./gradlew",
    "./mvnw",
)
PYTHONS = ("python", "python3")
NULL_DEVICE = "/dev/null"


@dataclass(frozen=True)
class Whitelist:
    prefixes: tuple[tuple[str, ...], ...]

    def names(self) -> str:
        """The allowed prefixes as the model sees them in a refusal, git's subcommands folded into one entry."""
        git = [p[1] for p in self.prefixes if p[0] == "git" and len(p) == 2]
        others = [" ".join(p) for p in self.prefixes if not (p[0] == "git" and len(p) == 2)]
        return ", ".join(others + ([f"git {'|'.join(git)}"] if git else []))


def command_prefix(entry: str) -> tuple[str, ...]:
    """The part of a quality command that names what runs: `pytest -q` allows pytest with any arguments,
    `python -m compileall -q .` allows `python -m compileall`, `cargo test` allows cargo's test subcommand."""
    tokens = tuple(shlex.split(entry))
    if len(tokens) >= 3 and tokens[0] in PYTHONS and tokens[1] == "-m":
        return tokens[:3]
    if len(tokens) >= 2 and tokens[0] in SUBCOMMAND_PROGRAMS and not tokens[1].startswith("-"):
        return tokens[:2]
    return tokens[:1]


def build_whitelist(allowed_commands: Sequence[str] = (), extra_commands: Sequence[str] = ()) -> Whitelist:
    """Safe utilities, read-only git, then the language pack's programs and the user's commands (deduplicated);
    a pack that runs pytest also allows `python -m pytest`, and one that runs `npm test` allows `node --test`
    (what a package.json's test script most often runs): the spellings models reach for."""
    prefixes: list[tuple[str, ...]] = [(name,) for name in SAFE_UTILITIES] + [("git", sub) for sub in GIT_READ_ONLY]
    pack = [command_prefix(entry) for entry in allowed_commands]
    pack += [(python, "-m", "pytest") for python in PYTHONS if ("pytest",) in pack]
    pack += [("node", "--test")] if ("npm", "test") in pack else []
    for tokens in [*pack, *(tuple(shlex.split(entry)) for entry in extra_commands)]:
        if tokens and tokens not in prefixes:
            prefixes.append(tokens)
    return Whitelist(tuple(prefixes))


def _check_path_arg(workspace: Path, value: str) -> None:
    if not value or value == NULL_DEVICE:
        return
    # Names outside by spelling, or an existing entry (it may be a symlink pointing out): resolve and check.
    if value.startswith(("/", "~")) or ".." in value.split("/") or os.path.lexists(workspace / value):
        resolve_path(workspace, value)  # raises Refusal when it points outside


def _forbidden(program: str, arg: str) -> bool:
    longs, letters = FORBIDDEN_ARGS.get(program, ((), ""))
    if any(arg == p or arg.startswith(p + "=") or (p == "-O" and arg.startswith(p)) for p in longs):
        return True
    return bool(letters) and arg.startswith("-") and not arg.startswith("--") and any(c in arg for c in letters)


def _expand(workspace: Path, command: Command) -> list[str]:
    """argv with unquoted globs expanded inside the workspace (no match keeps the word, as sh does)."""
    argv: list[str] = []
    for word in command.words:
        if word.globbed and not word.text.startswith(("/", "~")):
            matches = sorted(globlib.glob(word.pattern, root_dir=workspace))
            argv.extend(matches or [word.text])
        else:
            argv.append(word.text)
    return argv


def _check_redirect(workspace: Path, redirect: Redirect) -> None:
    if redirect.op == ">&":
        if redirect.target not in {"1", "2"}:
            raise Refusal(f"redirection >&{redirect.target} is not allowed (only 2>&1 and 1>&2)")
        return
    if redirect.op == "<":
        resolve_path(workspace, redirect.target)
        return
    if redirect.target != NULL_DEVICE:
        target, op = redirect.target, redirect.op
        raise Refusal(f"writing to {target} with {op} is not allowed; files are written with ws_write or ws_edit")


def check_command(workspace: Path, argv: list[str], whitelist: Whitelist) -> None:
    """Raise a Refusal unless argv starts with an allowed prefix and names nothing outside the workspace."""
    if not any(tuple(argv[: len(p)]) == p for p in whitelist.prefixes):
        shown = " ".join(argv[:2]) if argv[:1] == ["git"] else argv[0]
        raise Refusal(f"{shown} is not on the whitelist")
    program = os.path.basename(argv[0])
    if argv[:3] in ([p, "-m", "pytest"] for p in PYTHONS):
        program = "pytest"
    for arg in argv[1:]:
        if _forbidden(program, arg):
            raise Refusal(f"{program} {arg} is not allowed (it writes files, reads a list of files or runs programs)")
        _check_path_arg(workspace, arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg)
    operands = [arg for arg in argv[1:] if not arg.startswith("-")]
    if program in WRITES_SECOND_OPERAND and len(operands) > 1:
        raise Refusal(f"{program} with an output file is not allowed; files are written with ws_write or ws_edit")


@dataclass
class PlannedStep:
    joiner: str | None
    pipeline: list[tuple[list[str], list[Redirect]]]


def plan(workspace: Path, line: str, whitelist: Whitelist) -> list[PlannedStep]:
    """The checked, glob-expanded steps of a command line; a Refusal says which part is not allowed."""
    try:
        steps: list[Step] = parse(line)
    except ParseRefusal as exc:
        raise Refusal(str(exc)) from None
    planned: list[PlannedStep] = []
    for step in steps:
        pipeline = []
        for command in step.pipeline:
            argv = _expand(workspace, command)
            check_command(workspace, argv, whitelist)
            for redirect in command.redirects:
                _check_redirect(workspace, redirect)
            pipeline.append((argv, command.redirects))
        planned.append(PlannedStep(step.joiner, pipeline))
    return planned
