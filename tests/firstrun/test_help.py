"""`slmcode --help` and `slmcode run --help` read as words: no Python type tags, flags take no value word."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from slmcode.cli import app

TYPE_TAGS = re.compile(r"<(str|bool|int|float|path|Path)>|\b(TEXT|INTEGER|BOOLEAN|FLOAT)\b")


def _help(*args: str) -> str:
    result = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "160", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    return result.output


def _row(text: str, option: str) -> str:
    return next(line for line in text.splitlines() if f" {option} " in line)


def test_top_level_help_has_no_type_tags():
    text = _help()
    assert not TYPE_TAGS.search(text), TYPE_TAGS.search(text)
    assert re.search(r"--version\s+Print the version", text)  # a flag: no value word between name and help


def test_run_help_names_values_by_what_they_are():
    text = _help("run")
    assert not TYPE_TAGS.search(text), TYPE_TAGS.search(text)
    assert re.search(r"Usage: \S+ run \[OPTIONS\] TASK\s", text)
    assert re.search(r"--workspace\s+-w\s+PATH\s", _row(text, "--workspace"))
    assert re.search(r"--model\s+MODEL\s", _row(text, "--model"))
    assert re.search(r"--yes\s+-y\s+Answer every question", _row(text, "--yes"))


def test_every_command_help_is_free_of_type_tags():
    names = [command.name for command in app.registered_commands] + [group.name for group in app.registered_groups]
    for name in filter(None, names):
        text = _help(name)
        assert not TYPE_TAGS.search(text), (name, TYPE_TAGS.search(text))


def test_a_missing_argument_is_named_as_the_usage_line_names_it():
    result = CliRunner().invoke(app, ["run"], env={"COLUMNS": "160", "NO_COLOR": "1"})
    assert result.exit_code == 2
    assert "Missing argument 'TASK'" in result.output
