from hypothesis import given, settings
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from slmcode.compact.pairs import cut_points, ensure_pairs, keep_window_start, validate_pairs
from tests.compact.transcripts import broken_transcripts, transcripts


def call(call_id: str, name: str = "ws_read") -> dict:
    return {"name": name, "args": {"path": "a.py"}, "id": call_id}


def test_a_call_without_result_and_an_orphan_result_are_reported() -> None:
    messages = [
        HumanMessage("task"),
        AIMessage("", tool_calls=[call("a"), call("b")]),
        ToolMessage("ok", tool_call_id="a"),
        HumanMessage("more"),
        ToolMessage("late", tool_call_id="zzz"),
    ]
    problems = validate_pairs(messages)
    assert any("'b'" in p for p in problems)
    assert any("'zzz'" in p for p in problems)


def test_ensure_pairs_answers_a_crashed_call_with_an_error_and_drops_orphans() -> None:
    crashed = AIMessage("", tool_calls=[call("a", "ws_shell")])
    messages = [HumanMessage("task"), crashed, ToolMessage("x", tool_call_id="q")]
    fixed = ensure_pairs(messages)
    assert validate_pairs(fixed) == []
    synthetic = fixed[-1]
    assert isinstance(synthetic, ToolMessage) and synthetic.tool_call_id == "a"
    assert synthetic.status == "error" and "ws_shell" in synthetic.content
    assert all(getattr(m, "tool_call_id", None) != "q" for m in fixed)


def test_a_call_id_repeated_in_one_answer_or_across_answers_is_answered_once() -> None:
    messages = [
        HumanMessage("task"),
        AIMessage("", tool_calls=[call("a"), call("a")]),
        ToolMessage("one", tool_call_id="a"),
        AIMessage("", tool_calls=[call("a"), call("b")]),
        ToolMessage("two", tool_call_id="b"),
    ]
    fixed = ensure_pairs(messages)
    assert validate_pairs(fixed) == []
    assert [c["id"] for m in fixed for c in getattr(m, "tool_calls", [])] == ["a", "b"]


@settings(max_examples=30, deadline=None)
@given(transcripts())
def test_well_formed_transcripts_pass_and_come_back_unchanged(messages: list) -> None:
    assert validate_pairs(messages) == []
    assert ensure_pairs(messages) == messages


@settings(max_examples=25, deadline=None)
@given(broken_transcripts())
def test_ensure_pairs_always_yields_a_well_formed_transcript_keeping_every_turn(messages: list) -> None:
    fixed = ensure_pairs(messages)
    assert validate_pairs(fixed) == []

    def turns(transcript: list) -> list:
        # every turn stays, with its text and each distinct call id once
        return [
            (m.type, m.content, list(dict.fromkeys(c["id"] for c in getattr(m, "tool_calls", []))))
            for m in transcript
            if not isinstance(m, ToolMessage)
        ]

    assert turns(fixed) == turns(messages)


@settings(max_examples=30, deadline=None)
@given(transcripts())
def test_every_cut_point_splits_into_two_well_formed_halves(messages: list) -> None:
    for point in cut_points(messages):
        assert validate_pairs(messages[:point]) == []
        assert validate_pairs(messages[point:]) == []


@settings(max_examples=30, deadline=None)
@given(transcripts(react_only=True))
def test_keep_window_holds_the_last_results_and_starts_on_a_round(messages: list) -> None:
    start = keep_window_start(messages, 5)
    assert validate_pairs(messages[start:]) == []
    results = [m for m in messages if isinstance(m, ToolMessage)]
    kept = [m for m in messages[start:] if isinstance(m, ToolMessage)]
    assert kept[-5:] == results[-5:]
