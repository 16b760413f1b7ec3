"""The manual's commands run: every complete `slmcode ...` line the pages show (shell blocks and inline code,
as tests/test_docs_commands.py reads them) is executed, page by page in the page's order, in a copy of the
calculator example, with the model server the pages name (`http://localhost:11434/v1`, or none: the embedded
model) replaced by the scripted server on loopback. A line passes when it ends as a tool should: no traceback,
no usage error (an option or argument the command does not take), an exit code of 0, 1 or 2.

Not run, each for its reason: a line with a placeholder (RUN, `[--json]`, `...`, `~/clones`), the mention of a
command by name alone (`run`, `eval`), commands that serve or converse until stopped (`serve`, `chat`, `board`),
and `eval` lines that need a benchmark checkout or minutes of simulated attempts."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest
import typer.main

from slmcode.cli import app
from slmcode.nodes.prompts import SYSTEM
from tests import inprocess
from tests.fake_llm import FakeLLM
from tests.graph.scenario import divide_worker_replies, make_repo, script_planning
from tests.test_docs_commands import commands_in
from tests.test_docs_manual import pages

PLACEHOLDER = re.compile(r"^[A-Z][A-Z_]*$|[\[\]\\|(~]|\.\.\.|path/to|\.jsonl$")
UNTIL_STOPPED = {"serve", "chat", "board"}
USAGE_ERRORS = ("No such option", "No such command", "Missing argument", "Missing option", "unexpected extra argument")
SERVER = "http://localhost:11434/v1"
ROOT = typer.main.get_command(app)


def why_not_run(words: list[str]) -> str | None:
    """Why the documented line `slmcode WORDS` is not executed here, or None to run it."""
    if not words:
        return "no command"
    if any(PLACEHOLDER.search(w) for w in words):
        return "a placeholder"
    if words[0] in UNTIL_STOPPED:
        return "runs until stopped"
    if words[0] == "eval" and not {"--list"} & set(words):
        return "needs a model, a checkout or minutes of simulated attempts"
    command, rest = ROOT, list(words)
    while hasattr(command, "commands") and rest and rest[0] in command.commands:  # type: ignore[attr-defined]
        command, rest = command.commands[rest.pop(0)], rest  # type: ignore[attr-defined]
    if _positionals(command, rest) < sum(1 for p in command.params if p.required and not p.opts[0].startswith("-")):
        return "a command named, not a line to type"  # `run --git-mode branch`: a flag shown, no task given
    return None


def _positionals(command: object, words: list[str]) -> int:
    """How many of `words` are arguments, not options or their values."""
    takes_value = {
        opt
        for p in command.params  # type: ignore[attr-defined]
        if p.opts[0].startswith("-") and not getattr(p, "is_flag", False)
        for opt in p.opts
    }
    count, skip = 0, False
    for word in words:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in takes_value
        else:
            count += 1
    return count


def lines_of(page: Path, workspace: Path) -> list[list[str]]:
    """The page's documented lines as argv, the example's folder and server made this test's."""
    found = []
    for text in commands_in(page):
        text = text.replace("/tmp/calculator", str(workspace)).replace("~/calculator", str(workspace))
        try:
            found.append(shlex.split(text))
        except ValueError:  # an unbalanced quote: prose, not a line
            continue
    return found


RUNNABLE_PAGES = [p for p in pages() if p.name != "CHANGELOG.md"]  # the changelog names what changed, past tense


@pytest.mark.parametrize("page", RUNNABLE_PAGES, ids=[p.name for p in RUNNABLE_PAGES])
def test_the_pages_commands_run_as_documented(page: Path, tmp_path: Path, fake_llm: FakeLLM) -> None:
    script_planning(fake_llm)
    fake_llm.on(SYSTEM["worker"], *divide_worker_replies())
    workspace = make_repo(tmp_path)
    env = {
        **os.environ,
        "SLMCODE_HOME": str(tmp_path / "home"),
        "HOME": str(tmp_path / "home"),
        "SLMCODE_BASE_URL": fake_llm.url,
    }
    wrong = []
    for words in lines_of(page, workspace):
        if why_not_run(words):
            continue
        words = [fake_llm.url if w == SERVER else w for w in words]
        done = inprocess.slmcode(*words, env=env, cwd=workspace, stdin="n\n")
        said = done.stdout + done.stderr
        if "Traceback (most recent call last)" in said or any(e in said for e in USAGE_ERRORS) or done.returncode > 2:
            wrong.append(f"slmcode {shlex.join(words)}: exit {done.returncode}\n{said[-800:]}")
    assert not wrong, "\n\n".join(wrong)


def test_the_pages_show_commands_to_run() -> None:
    """The count of lines the manual shows that the test above executes: a pattern that stops reading the pages
    would make it pass by running nothing."""
    workspace = Path("/nonexistent")
    runnable = [w for p in RUNNABLE_PAGES for w in lines_of(p, workspace) if why_not_run(w) is None]
    assert len(runnable) >= 40, runnable
    assert ["doctor"] in runnable and ["eval", "--list"] in runnable
