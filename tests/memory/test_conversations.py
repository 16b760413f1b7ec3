"""The conversation store: what a worker branch reads back is what the checkpoint's length names, even after a
step was killed between writing its messages and its checkpoint, and in a new process."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from slmcode.store.conversations import ConversationGap, ConversationStore, conversations_path, store_for

CALL = {"name": "ws_read", "args": {"path": "/abs/calc/ops.py"}, "id": "c1"}


def opening() -> list:
    return [SystemMessage("You are a coding agent."), HumanMessage("Add divide.")]


def test_a_replayed_step_replaces_what_the_killed_one_wrote_and_a_new_process_reads_it_back(tmp_path: Path) -> None:
    store = store_for(tmp_path)
    length = store.write("run-1", "worker:t1/1", 0, [*opening(), AIMessage("", tool_calls=[CALL])])
    # The tools step writes its result, then the process dies before the checkpoint naming length 4 is saved.
    store.write("run-1", "worker:t1/1", length, [ToolMessage("stale", tool_call_id="c1", name="ws_read")])
    # On resume the step runs again from the checkpoint's length 3 and writes its own result.
    result = ToolMessage("1\tdef add", tool_call_id="c1", name="ws_read", artifact={"path": "calc/ops.py"})
    assert store.write("run-1", "worker:t1/1", length, [result]) == 4
    fresh = ConversationStore(conversations_path(tmp_path))  # another process: nothing decoded in memory
    messages = fresh.read("run-1", "worker:t1/1", 4)
    assert messages[:2] == opening() and messages[2].tool_calls[0]["id"] == "c1"
    assert messages[3].content == "1\tdef add" and messages[3].artifact == {"path": "calc/ops.py"}
    assert fresh.read("run-1", "worker:t1/1", 3) == messages[:3]  # a shorter length never shows the rest
    assert fresh.read("run-2", "worker:t1/1", 0) == []


def test_a_store_missing_messages_a_checkpoint_names_says_so(tmp_path: Path) -> None:
    store = ConversationStore(conversations_path(tmp_path))
    store.write("run-1", "worker:t1/1", 0, opening())
    with pytest.raises(ConversationGap, match="2 of 5 messages"):
        store.read("run-1", "worker:t1/1", 5)
