"""Hypothesis strategies for worker transcripts: parallel tool calls, interleaved user and assistant turns,
failed calls, shell results with exit codes; optionally broken (missing results, orphans, results moved)."""

from __future__ import annotations

import random

from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

WORDS = [
    "def",
    "return",
    "value",
    "items",
    "error",
    "test",
    "pass",
    "fail",
    "src/a.py",
    "x",
    "=",
    "(",
    ")",
    "\n",
    "\n",
    "import",
    "class",
    "Foo",
    "bar",
    "assert",
    "1",
    "42",
    "discount",
    "total",
]
PATHS = [f"src/mod{i}.py" for i in range(20)]
COMMANDS = ["pytest -q", "ruff check .", "python -m app", "make test", "pytest tests/test_a.py", "ls", "git diff"]
TOOLS = ["ws_read", "ws_list", "ws_search", "ws_write", "ws_edit", "ws_shell", "ws_skill"]


def _text(length: int, seed: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(length))


def words(max_size: int) -> st.SearchStrategy[str]:
    # Two draws per text instead of one per word: generating long transcripts stays fast.
    return st.builds(_text, st.integers(0, max_size), st.integers(0, 2**16))


@st.composite
def tool_call(draw: st.DrawFn, call_id: str) -> dict:
    name = draw(st.sampled_from(TOOLS))
    path = draw(st.sampled_from(PATHS))
    args = {
        "ws_read": {"path": path, "offset": 0, "limit": 40},
        "ws_list": {"path": "src"},
        "ws_search": {"pattern": draw(st.sampled_from(["discount", "total"]))},
        "ws_write": {"path": path, "content": draw(words(40))},
        "ws_edit": {"path": path, "old_str": "a", "new_str": "b"},
        "ws_shell": {"command": draw(st.sampled_from(COMMANDS))},
        "ws_skill": {"name": draw(st.sampled_from(["python-tests", "git"]))},
    }[name]
    return {"name": name, "args": args, "id": call_id}


@st.composite
def tool_result(draw: st.DrawFn, call: dict, max_words: int) -> ToolMessage:
    body = draw(words(max_words))
    if draw(st.integers(0, 5)) == 0:
        return ToolMessage(f"Error: {body}", tool_call_id=call["id"], name=call["name"], status="error")
    if call["name"] == "ws_shell":
        body += f"\nexit code {draw(st.sampled_from([0, 0, 1, 2]))}"
    return ToolMessage(body, tool_call_id=call["id"], name=call["name"])


@st.composite
def transcripts(
    draw: st.DrawFn, *, max_turns: int = 30, max_words: int = 120, react_only: bool = False
) -> list[BaseMessage]:
    """A well-formed transcript: [system] task, then turns (tool rounds with 1-3 parallel calls in shuffled
    result order; unless react_only, also user turns and plain assistant answers)."""
    messages: list[BaseMessage] = []
    if draw(st.booleans()):
        messages.append(SystemMessage("You are a coding agent."))
    messages.append(HumanMessage("Task: " + draw(words(30))))
    kinds = ["calls"] if react_only else ["calls", "calls", "calls", "human", "answer"]
    for turn in range(draw(st.integers(0, max_turns))):
        kind = draw(st.sampled_from(kinds))
        if kind == "human":
            messages.append(HumanMessage(draw(words(30))))
        elif kind == "answer":
            messages.append(AIMessage(draw(words(30))))
        else:
            calls = [draw(tool_call(f"c{turn}_{k}")) for k in range(draw(st.integers(1, 3)))]
            messages.append(AIMessage(draw(words(12)), tool_calls=calls))
            results = [draw(tool_result(c, max_words)) for c in calls]
            messages.extend(draw(st.permutations(results)))
    return messages


@st.composite
def broken_transcripts(draw: st.DrawFn) -> list[BaseMessage]:
    """A transcript with damage: results removed (a crashed tool), orphan results added, results moved later,
    a call id repeated within one answer."""
    messages = list(draw(transcripts(max_turns=15, max_words=30)))
    for _ in range(draw(st.integers(0, 3))):
        results = [i for i, m in enumerate(messages) if isinstance(m, ToolMessage)]
        if not results:
            break
        victim = draw(st.sampled_from(results))
        removed = messages.pop(victim)
        if draw(st.booleans()):  # moved to a later position instead of lost
            messages.insert(draw(st.integers(victim, len(messages))), removed)
    askers = [i for i, m in enumerate(messages) if isinstance(m, AIMessage) and m.tool_calls]
    if askers and draw(st.booleans()):  # a model that repeats a call id within one answer
        i = draw(st.sampled_from(askers))
        calls = messages[i].tool_calls
        messages[i] = messages[i].model_copy(update={"tool_calls": [*calls, dict(calls[0])]})
    for n in range(draw(st.integers(0, 2))):
        position = draw(st.integers(0, len(messages)))
        messages.insert(position, ToolMessage("stray", tool_call_id=f"orphan{n}", name="ws_read"))
    return messages
