from hypothesis import given, settings
from langchain_core.messages import AIMessage, ToolMessage

from slmcode.compact.carryover import MAX_RECENT_FILES, MAX_WORK_LOG, Carryover, carryover_for
from tests.compact.transcripts import transcripts


def test_buckets_fill_from_the_transcript_and_the_graph_sets_focus_and_plan() -> None:
    calls = [
        {"name": "ws_read", "args": {"path": "src/a.py"}, "id": "1"},
        {"name": "ws_shell", "args": {"command": "pytest -q"}, "id": "2"},
        {"name": "ws_skill", "args": {"name": "python-tests"}, "id": "3"},
    ]
    messages = [
        AIMessage("", tool_calls=calls),
        ToolMessage("code", tool_call_id="1"),
        ToolMessage("3 passed\nexit code 0", tool_call_id="2"),
        ToolMessage("# skill body", tool_call_id="3"),
    ]
    base = Carryover(task_focus="src/a.py: fix rounding").with_plan(["fix", "test"], "review")
    carry = carryover_for(messages, permission_mode="review", base=base)
    blocks = dict(carry.blocks())
    assert blocks["task_focus"] == "src/a.py: fix rounding"
    assert blocks["plan"].startswith("permission mode: review")
    assert "- src/a.py" in blocks["recent_files"]
    assert "pytest -q -> exit 0" in blocks["verified_work"]
    assert "python-tests" in blocks["invoked_skills"]
    assert "ws_shell pytest -q: exit 0" in blocks["work_log"]


def test_the_permission_mode_in_force_wins() -> None:
    carry = carryover_for([], permission_mode="dry-run", base=Carryover().with_plan(["a"], "auto"))
    assert carry.plan.permission_mode == "dry-run" and carry.plan.steps == ["a"]


@settings(max_examples=20, deadline=None)
@given(transcripts(max_turns=40, max_words=5))
def test_buckets_stay_bounded_however_long_the_run(messages: list) -> None:
    carry = Carryover()
    for _ in range(3):
        carry = carry.update(messages)
    assert len(carry.recent_files) <= MAX_RECENT_FILES and len(carry.work_log) <= MAX_WORK_LOG
    assert len(set(carry.recent_files)) == len(carry.recent_files)
