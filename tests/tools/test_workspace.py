"""What a worker sees when it reads, lists, searches, writes and edits files."""

from __future__ import annotations

from pathlib import Path

from slmcode.tools.context import ToolContext
from tests.tools.conftest import CallTool

CALC = "src/calc.py"


def test_read_numbers_lines_by_their_real_position(call: CallTool) -> None:
    result = call("ws_read", path=CALC, offset=5, limit=1)
    assert result.content == "5\tdef sub(a, b):\n[1 of 6 lines shown; continue with offset=6]"


def test_read_past_the_end_says_how_long_the_file_is(call: CallTool) -> None:
    assert call("ws_read", path=CALC, offset=40).content == "Error: src/calc.py has 6 lines; offset 40 is past the end."


def test_read_is_cut_at_the_output_budget_with_a_continuation(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    from slmcode.tools.workspace import ws_read

    (workspace / "long.py").write_text("".join(f"x_{n} = {n}\n" for n in range(500)))
    ctx = make_ctx(tool_output_inline_bytes=200)
    out = ws_read(ctx, "long.py")
    *shown, note = out.splitlines()
    last = int(shown[-1].split("\t")[0])
    # The note fits inside the limit too, so the worker never offloads a read.
    assert len(out.encode()) <= 200 and shown[0] == "1\tx_0 = 0"
    assert note == f"[output cut at line {last}; continue with offset={last + 1}]"


def test_list_marks_folders_and_glob_searches_subfolders(call: CallTool) -> None:
    top = call("ws_list").content.splitlines()
    assert "src/" in top and "README.md" in top and ".git/" not in top
    assert call("ws_list", glob="*.py").content == CALC


def test_search_reports_path_line_and_text(call: CallTool) -> None:
    assert call("ws_search", pattern=r"return a [+-] b", glob="*.py").content == (
        "src/calc.py:2: return a + b\nsrc/calc.py:6: return a - b"
    )


def test_search_treats_a_broken_regex_as_plain_text(call: CallTool) -> None:
    assert call("ws_search", pattern="add(a").content.endswith("src/calc.py:1: def add(a, b):")


def test_write_creates_a_new_file(call: CallTool, workspace: Path, ctx: ToolContext) -> None:
    assert call("ws_write", path="src/new/mod.py", content="X = 1\n").content == "created src/new/mod.py (1 lines)."
    assert (workspace / "src/new/mod.py").read_text() == "X = 1\n"
    assert ctx.files_changed == ["src/new/mod.py"]


def test_write_guard_refuses_to_overwrite(call: CallTool, workspace: Path) -> None:
    result = call("ws_write", path=CALC, content="")
    assert result.content == (
        "Error: src/calc.py already exists; use ws_edit to change it (ws_write only creates new files)."
    )
    assert "def add" in (workspace / CALC).read_text()


def test_edit_needs_a_read_first(call: CallTool, workspace: Path) -> None:
    before = (workspace / CALC).read_text()
    assert call("ws_edit", path=CALC, old_str="a + b", new_str="b + a").content == (
        "Error: read src/calc.py with ws_read before editing it."
    )
    assert (workspace / CALC).read_text() == before


def test_edit_replaces_one_exact_unique_match(call: CallTool, workspace: Path) -> None:
    call("ws_read", path=CALC)
    assert call("ws_edit", path=CALC, old_str="return a + b", new_str="return b + a").content == (
        "edited src/calc.py (6 lines)."
    )
    assert "return b + a" in (workspace / CALC).read_text()


def test_edit_refuses_an_ambiguous_match_naming_the_lines(call: CallTool) -> None:
    call("ws_read", path=CALC)
    assert call("ws_edit", path=CALC, old_str="(a, b):", new_str="(x, y):").content == (
        "Error: old_str occurs 2 times in src/calc.py (lines 1, 5); include more surrounding lines so it occurs once."
    )


def test_edit_near_miss_shows_the_nearest_lines(call: CallTool, workspace: Path) -> None:
    call("ws_read", path=CALC)
    result = call("ws_edit", path=CALC, old_str="def sub(a, b):\n  return a-b", new_str="x")
    assert result.content.startswith("Error: old_str was not found in src/calc.py. The closest lines are:\n")
    assert "5\tdef sub(a, b):\n6\t    return a - b" in result.content
    assert "1\tdef add" not in result.content
    assert "return a - b" in (workspace / CALC).read_text()


def test_edit_accepts_old_str_copied_with_line_numbers(call: CallTool, workspace: Path) -> None:
    call("ws_read", path=CALC)
    result = call("ws_edit", path=CALC, old_str="2\t    return a + b", new_str="2\t    return a + b + 0")
    assert result.status == "success"
    assert "    return a + b + 0\n" in (workspace / CALC).read_text()


def test_edit_keeps_windows_line_endings(call: CallTool, workspace: Path) -> None:
    (workspace / "win.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    call("ws_read", path="win.txt")
    assert call("ws_edit", path="win.txt", old_str="one\ntwo", new_str="1\n2").status == "success"
    assert (workspace / "win.txt").read_bytes() == b"1\r\n2\r\nthree\r\n"


def test_skill_body_or_an_error(ctx: ToolContext) -> None:
    from slmcode.tools.toolset import make_tools, run_tool_call

    ctx.skills = {"pytest-style": "Use plain asserts."}.get
    tools = make_tools(ctx)
    assert run_tool_call(tools, {"name": "ws_skill", "args": {"name": "pytest-style"}, "id": "1"}).content == (
        "Use plain asserts."
    )
    missing = run_tool_call(tools, {"name": "ws_skill", "args": {"name": "nope"}, "id": "2"})
    assert missing.content.startswith("Error: no skill card named 'nope'")
