"""The levers `eval --ablate` switches off (the `ablate` setting), each doing what its row in the table claims:
packs without code excerpts, packs without the map, calls used as the model sent them, the conversation sent
whole, and no corrector after a rejection. Off by default: the same pack as before."""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from slmcode.budget.room import WorkerRoom
from slmcode.config import Settings
from slmcode.nodes.corrector import attempts_left
from slmcode.nodes.loop_guard import guard_on
from slmcode.nodes.worker.model_request import request_for
from slmcode.packs.builder import build_pack
from slmcode.state import Task


def _workspace(tmp_path: Path) -> Path:
    (tmp_path / "shop").mkdir(exist_ok=True)
    (tmp_path / "shop" / "prices.py").write_text(
        "def format_price(cents):\n    return '$' + str(cents / 100)\n\n\ndef total(items):\n"
        "    return sum(i.cents for i in items)\n"
    )
    (tmp_path / "shop" / "page.py").write_text(
        "from shop.prices import format_price\n\n\ndef show(p):\n    return format_price(p)\n"
    )
    return tmp_path


def _pack(tmp_path: Path, **settings: object) -> dict[str, str]:
    pack = build_pack(
        "worker",
        settings=Settings(**settings),
        workspace=_workspace(tmp_path),
        query="format_price shows $3.5 instead of $3.50",
        system_prompt="You fix code.",
        budget_tokens=3000,
    )
    return {name: text for name, _, text in pack.sections}


def test_packs_off_leaves_out_the_code_and_repo_map_off_the_map(tmp_path: Path) -> None:
    whole = _pack(tmp_path)
    assert "return '$' + str(cents / 100)" in whole.get("excerpts", "") and whole.get("map")
    no_code = _pack(tmp_path, ablate=["packs"])
    assert not no_code.get("excerpts") and no_code.get("map") and "format_price" in no_code["task"]
    no_map = _pack(tmp_path, ablate=["repo_map"])
    assert not no_map.get("map") and not no_map.get("task_map") and "cents / 100" in no_map.get("excerpts", "")


def test_compaction_off_sends_the_conversation_whole() -> None:
    messages = [SystemMessage("s"), HumanMessage("task")]
    for i in range(30):
        messages += [
            AIMessage("", tool_calls=[{"name": "ws_read", "args": {"path": f"f{i}"}, "id": f"c{i}"}]),
            ToolMessage("x" * 4000, tool_call_id=f"c{i}"),
        ]
    room = WorkerRoom(room=3000, result_bytes=4000, pack=1000)
    compacted = request_for(messages, Settings(model="qwen2.5-coder:7b"), room).messages
    whole = request_for(messages, Settings(model="qwen2.5-coder:7b", ablate=["compaction"]), room).messages
    assert whole == messages and compacted != messages


def test_loop_guard_off_neither_steers_nor_stops() -> None:
    assert guard_on(Settings()) and not guard_on(Settings(ablate=["loop_guard"]))
    assert not guard_on(Settings(loop_guard="off"))


def test_verify_off_leaves_a_rejected_task_no_corrector() -> None:
    task = Task(id="t1", title="fix", status="rejected", attempts=1)
    assert attempts_left(task, Settings())
    assert not attempts_left(task, Settings(ablate=["verify"]))
