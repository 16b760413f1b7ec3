"""The edit format (tools/editformat.py) through the real tools: near misses applied and said so, the `auto`
format's whole-file offer after K misses on a file, the `whole` format's tool list, and the rewrite guard that
refuses to drop a definition the task did not name. The texts the model reads are snapshotted."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool

from slmcode.repomap.definitions import defined_names
from slmcode.tools import prompts
from slmcode.tools.context import ToolContext
from slmcode.tools.editformat import EditFormat
from slmcode.tools.toolset import make_tools, run_tool_call
from tests.snapshot import assert_snapshot

CALC = "src/calc.py"
MakeCtx = Callable[..., ToolContext]


def caller(ctx: ToolContext) -> Callable[..., ToolMessage]:
    tools = make_tools(ctx)
    return lambda name, **args: run_tool_call(tools, {"name": name, "args": args, "id": "call_1"})


def with_format(make_ctx: MakeCtx, mode: str, task: str = "Make sub subtract b from a") -> ToolContext:
    ctx = make_ctx()
    ctx.edit = EditFormat(mode=mode, offer_after=2, definitions=defined_names, task_text=task)
    return ctx


def test_old_str_with_its_indentation_lost_is_applied_reindented(make_ctx: MakeCtx, workspace: Path) -> None:
    (workspace / "shape.py").write_text("class Shape:\n    def area(self):\n        return 0\n")
    call = caller(make_ctx())
    call("ws_read", path="shape.py")
    # A model recalling the method out of its class: old_str and new_str both lost one level of indentation.
    result = call(
        "ws_edit",
        path="shape.py",
        old_str="def area(self):\n    return 0\n",
        new_str="def area(self):\n    return self.w * self.h\n",
    )
    assert result.status == "success"
    assert result.content.endswith(
        "[old_str matched line 2 with its indentation shifted; new_str was applied there, re-indented the same way]"
    )
    assert (workspace / "shape.py").read_text() == "class Shape:\n    def area(self):\n        return self.w * self.h\n"


def test_old_str_indented_too_deep_is_applied_one_level_up(make_ctx: MakeCtx, workspace: Path) -> None:
    call = caller(make_ctx())
    call("ws_read", path=CALC)
    result = call(
        "ws_edit",
        path=CALC,
        old_str="  def add(a, b):\n      return a + b",
        new_str="  def add(a, b):\n      return b + a",
    )
    assert result.status == "success" and "line 1 with its indentation shifted" in result.content
    assert (workspace / CALC).read_text().startswith("def add(a, b):\n    return b + a\n\n")


def test_trailing_spaces_in_old_str_do_not_matter(make_ctx: MakeCtx, workspace: Path) -> None:
    call = caller(make_ctx())
    call("ws_read", path=CALC)
    result = call(
        "ws_edit", path=CALC, old_str="def sub(a, b):  \n    return a - b ", new_str="def sub(a, b):\n    return 0"
    )
    assert result.status == "success" and "with trailing spaces ignored" in result.content
    assert "re-indented" not in result.content
    assert (workspace / CALC).read_text().endswith("def sub(a, b):\n    return 0\n")


def test_a_shifted_old_str_that_fits_two_places_is_refused(make_ctx: MakeCtx, workspace: Path) -> None:
    (workspace / "twice.py").write_text("def f():\n    x = 1\n\ndef g():\n    x = 1\n")
    call = caller(make_ctx())
    call("ws_read", path="twice.py")
    assert call("ws_edit", path="twice.py", old_str="x = 1  ", new_str="x = 2").content.startswith(
        "Error: old_str was not found in twice.py. The closest lines are:"
    )


def test_replace_never_offers_a_rewrite_and_keeps_refusing_to_overwrite(make_ctx: MakeCtx, workspace: Path) -> None:
    call = caller(with_format(make_ctx, "replace"))
    call("ws_read", path=CALC)
    for _ in range(4):
        assert "Rewrite the whole file" not in call("ws_edit", path=CALC, old_str="return a-b", new_str="x").content
    assert call("ws_write", path=CALC, content="").content.startswith("Error: src/calc.py already exists")


def test_auto_offers_the_whole_file_after_two_misses_then_accepts_the_rewrite(
    make_ctx: MakeCtx, workspace: Path
) -> None:
    ctx = with_format(make_ctx, "auto")
    call = caller(ctx)
    call("ws_read", path=CALC)
    first = call("ws_edit", path=CALC, old_str="return a-b", new_str="return b - a").content
    assert first.startswith("Error: old_str was not found in src/calc.py. The closest lines are:")
    assert call("ws_write", path=CALC, content="").content.startswith("Error: src/calc.py already exists")
    second = call("ws_edit", path=CALC, old_str="return a-b", new_str="return b - a").content
    assert second.startswith(
        "Error: old_str was not found in src/calc.py (2 misses on this file). Rewrite the whole "
        "file instead: call ws_write with path src/calc.py"
    )
    assert second.endswith(":\n" + (workspace / CALC).read_text().rstrip("\n"))  # the current text, unnumbered
    # Another file has no misses: still no rewrite there.
    (workspace / "other.py").write_text("X = 1\n")
    call("ws_read", path="other.py")
    assert call("ws_write", path="other.py", content="X = 2\n").content.startswith("Error: other.py already exists")
    new = (workspace / CALC).read_text().replace("return a - b", "return b - a")
    assert call("ws_write", path=CALC, content=new).content == "overwrote src/calc.py (6 lines)."
    assert (workspace / CALC).read_text() == new


def test_the_offer_shows_no_more_text_than_a_result_keeps_inline(make_ctx: MakeCtx, workspace: Path) -> None:
    (workspace / "long.py").write_text("".join(f"def f{n}():\n    return {n}\n\n" for n in range(400)))
    ctx = with_format(make_ctx, "auto")
    ctx.result_bytes = 1500
    call = caller(ctx)
    call("ws_read", path="long.py")
    call("ws_edit", path="long.py", old_str="nothing like it", new_str="x")
    offer = call("ws_edit", path="long.py", old_str="nothing like it", new_str="x").content
    assert len(offer.encode()) <= 1500
    assert "[cut here: lines " in offer and "read them with ws_read offset=" in offer


def test_the_rewrite_guard_names_the_definitions_dropped(make_ctx: MakeCtx, workspace: Path) -> None:
    call = caller(with_format(make_ctx, "whole"))
    call("ws_read", path=CALC)
    result = call("ws_write", path=CALC, content="def sub(a, b):\n    return a - b\n")
    assert result.content == (
        "Error: not written: this rewrite of src/calc.py drops add, which the task does not "
        "ask to remove. Write the whole file again with them kept."
    )
    assert "def add" in (workspace / CALC).read_text()


def test_a_definition_the_task_names_may_go(make_ctx: MakeCtx, workspace: Path) -> None:
    call = caller(with_format(make_ctx, "whole", task="Remove the add function"))
    call("ws_read", path=CALC)
    assert call("ws_write", path=CALC, content="def sub(a, b):\n    return a - b\n").status == "success"
    assert "def add" not in (workspace / CALC).read_text()


def test_a_rewrite_needs_the_file_read_first(make_ctx: MakeCtx, workspace: Path) -> None:
    call = caller(with_format(make_ctx, "whole"))
    before = (workspace / CALC).read_text()
    assert call("ws_write", path=CALC, content=before + "\n").content == (
        "Error: read src/calc.py with ws_read before rewriting it: a rewrite must keep what you have not seen."
    )


def _contract(ctx: ToolContext) -> list[dict[str, object]]:
    def args(tool: BaseTool) -> dict[str, object]:
        return {k: v.get("description") for k, v in tool.get_input_schema().model_json_schema()["properties"].items()}

    return [
        {"name": t.name, "description": t.description, "args": args(t)}
        for t in make_tools(ctx)
        if t.name in ("ws_write", "ws_edit")
    ]


def test_edit_format_contract_and_texts_snapshot(make_ctx: MakeCtx) -> None:
    texts = {
        "replace": _contract(with_format(make_ctx, "replace")),
        "auto": _contract(with_format(make_ctx, "auto")),
        "whole": _contract(with_format(make_ctx, "whole")),
        "offer": prompts.EDIT_OFFER_WHOLE.format(path="calc/ops.py", misses=2, text="<the file's text>"),
        "cut": prompts.REWRITE_TEXT_CUT.format(next=120, total=300),
        "read_first": prompts.REWRITE_READ_FIRST.format(path="calc/ops.py"),
        "drops": prompts.REWRITE_DROPS.format(path="calc/ops.py", names="add, Calculator.clear"),
        "loose": [
            prompts.EDIT_LOOSE.format(line=12, how=how, reindent=r)
            for how, r in ((prompts.LOOSE_TRAILING, ""), (prompts.LOOSE_INDENT, prompts.LOOSE_REINDENT))
        ],
    }
    assert_snapshot("edit_format.json", json.dumps(texts, indent=2) + "\n")
