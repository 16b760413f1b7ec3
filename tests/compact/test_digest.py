from hypothesis import given, settings
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from slmcode.compact.digest import MAX_BYTES, build_digest
from slmcode.compact.messages import RESUME_KEY
from tests.compact.transcripts import transcripts


def round_(n: int, name: str, args: dict, result: str, *, status: str = "success", text: str = "") -> list:
    call = {"name": name, "args": args, "id": f"d{n}"}
    return [AIMessage(text, tool_calls=[call]), ToolMessage(result, tool_call_id=f"d{n}", name=name, status=status)]


def test_the_digest_lists_files_commands_failures_and_decisions_in_that_order() -> None:
    messages = [
        *round_(1, "ws_read", {"path": "src/a.py"}, "code", text="I'll read the parser first."),
        *round_(2, "ws_edit", {"path": "src/b.py", "old_str": "x", "new_str": "y"}, "Edited src/b.py"),
        *round_(3, "ws_shell", {"command": "pytest -q"}, "1 failed\nexit code 1"),
        *round_(4, "ws_edit", {"path": "src/c.py", "old_str": "q", "new_str": "r"}, "Error: old_str not found"),
    ]
    text = build_digest(messages).render()
    order = [text.index(s) for s in ("Files read:", "Files edited:", "Commands:", "Failed calls:", "Decisions:")]
    assert order == sorted(order)
    assert "- src/a.py" in text and "- src/b.py" in text
    assert "- pytest -q -> exit 1" in text
    assert "ws_edit src/c.py: Error: old_str not found" in text
    assert "- src/c.py" not in text  # a failed edit did not edit the file
    assert "I'll read the parser first." in text


def test_the_latest_items_win_when_the_caps_bite() -> None:
    messages = []
    for n in range(20):
        messages += round_(n, "ws_read", {"path": f"src/f{n}.py"}, "code")
        messages += round_(100 + n, "ws_shell", {"command": f"pytest tests/t{n}.py"}, f"exit code {n % 2}")
    digest = build_digest(messages)
    assert digest.files_read == tuple(f"src/f{n}.py" for n in range(8, 20))
    assert digest.commands[-1] == "pytest tests/t19.py -> exit 1" and len(digest.commands) == 5


def test_a_digest_carried_by_an_earlier_resume_message_is_merged_first() -> None:
    earlier = HumanMessage("task", additional_kwargs={RESUME_KEY: {"digest": {"files_edited": ["old/x.py"]}}})
    digest = build_digest([earlier, *round_(1, "ws_write", {"path": "new/y.py", "content": "z"}, "Wrote")])
    assert digest.files_edited == ("old/x.py", "new/y.py")


@settings(max_examples=25, deadline=None)
@given(transcripts(max_turns=40, max_words=20))
def test_the_caps_always_hold(messages: list) -> None:
    digest = build_digest(messages)
    assert len(digest.files_read) + len(digest.files_edited) <= 12
    assert len(digest.commands) <= 5
    assert len(digest.failures) <= 3
    assert len(digest.decisions) <= 5
    assert len(digest.render().encode()) <= MAX_BYTES
