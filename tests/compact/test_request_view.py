import copy
import itertools

from hypothesis import given, settings
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from slmcode.budget.room import limits_for
from slmcode.budget.tokens import count_message_tokens
from slmcode.compact.elision import is_elided
from slmcode.compact.pairs import ensure_pairs, validate_pairs
from slmcode.compact.prompts import ELIDED_TOOL_RESULT
from slmcode.compact.request_view import request_view
from slmcode.config import Settings
from tests.compact.transcripts import broken_transcripts, transcripts

SETTINGS = Settings(model="test-model")
SMALL_WINDOW = 2048  # room for messages: 1,173 tokens
WINDOW = 4096  # room for messages: 2,346 tokens


def view_of(messages: list, window: int) -> list:
    """What a worker on a `window`-token model sends for `messages` (the request view model_request uses)."""
    return request_view(messages, settings=SETTINGS, limits=limits_for(SETTINGS, window)).messages


def read_round(n: int, lines: int = 30) -> list:
    call = {"name": "ws_read", "args": {"path": f"src/f{n}.py"}, "id": f"r{n}"}
    body = "\n".join(f"{i:>4}  value_{n}_{i} = compute(value_{i}, {i})" for i in range(lines))
    return [AIMessage("", tool_calls=[call]), ToolMessage(body, tool_call_id=f"r{n}", name="ws_read")]


def react_run(rounds: int) -> list:
    messages = [SystemMessage("You are a coding agent."), HumanMessage("Task: fix the bug in src/f1.py")]
    for n in range(rounds):
        messages += read_round(n)
    return messages


@settings(max_examples=25, deadline=None)
@given(transcripts(max_words=150))
def test_the_view_is_well_formed_non_empty_and_fits(messages: list) -> None:
    view = view_of(messages, SMALL_WINDOW)
    assert view
    assert validate_pairs(view) == []
    assert count_message_tokens(view) <= limits_for(SETTINGS, SMALL_WINDOW).room


@settings(max_examples=30, deadline=None)
@given(broken_transcripts())
def test_a_damaged_conversation_still_gives_a_well_formed_view(messages: list) -> None:
    view = view_of(messages, SMALL_WINDOW)
    assert validate_pairs(view) == []


@settings(max_examples=30, deadline=None)
@given(transcripts(max_words=150))
def test_the_view_is_pure_and_leaves_the_stored_conversation_alone(messages: list) -> None:
    before = copy.deepcopy(messages)
    first = view_of(messages, SMALL_WINDOW)
    second = view_of(messages, SMALL_WINDOW)
    assert first == second
    assert messages == before


@settings(max_examples=25, deadline=None)
@given(transcripts(react_only=True, max_words=80))
def test_the_last_five_tool_results_reach_the_model_whole(messages: list) -> None:
    view = view_of(messages, WINDOW)
    stored = [m for m in ensure_pairs(messages) if isinstance(m, ToolMessage)][-5:]
    sent = {m.tool_call_id: m.content for m in view if isinstance(m, ToolMessage)}
    assert all(sent.get(m.tool_call_id) == m.content for m in stored)


@settings(max_examples=25, deadline=None)
@given(transcripts(react_only=True, max_words=100, max_turns=40))
def test_between_slides_each_request_extends_the_previous_one_byte_for_byte(messages: list) -> None:
    limits = limits_for(SETTINGS, WINDOW)
    points = [i for i, m in enumerate(messages) if isinstance(m, AIMessage)] + [len(messages)]
    views = [request_view(messages[:p], settings=SETTINGS, limits=limits) for p in points]
    for earlier, later in itertools.pairwise(views):
        if earlier.cuts.slides == later.cuts.slides and earlier.ladder is None and later.ladder is None:
            assert later.messages[: len(earlier.messages)] == earlier.messages


def test_under_the_trigger_the_conversation_goes_out_unchanged() -> None:
    messages = react_run(2)
    assert view_of(messages, WINDOW) == messages


def test_past_the_trigger_all_but_the_last_five_results_are_elided_and_turns_stay() -> None:
    messages = react_run(12)
    view = request_view(messages, settings=SETTINGS, limits=limits_for(SETTINGS, 8192))
    results = [m for m in view.messages if isinstance(m, ToolMessage)]
    assert view.cuts.elided >= 1
    assert all(is_elided(m) for m in results[: view.cuts.elided])
    assert not any(is_elided(m) for m in results[-5:])
    # every call, every pair and every turn is still there
    assert [m.tool_call_id for m in results] == [f"r{n}" for n in range(12)]
    assert [type(m) for m in view.messages] == [type(m) for m in messages]


def test_a_long_run_drops_old_rounds_into_a_resume_block_with_the_digest() -> None:
    messages = react_run(80)
    view = view_of(messages, WINDOW)
    assert isinstance(view[0], SystemMessage)
    resume = view[1]
    assert resume.content.startswith("Task: fix the bug in src/f1.py")
    assert "<resume>" in resume.content and "Files read:" in resume.content
    assert "src/f0.py" not in [getattr(m, "tool_call_id", None) for m in view]
    assert ELIDED_TOOL_RESULT not in resume.content


def test_an_empty_conversation_is_refused_rather_than_sent_empty() -> None:
    try:
        view_of([], WINDOW)
    except ValueError as exc:
        assert "empty" in str(exc)
    else:
        raise AssertionError("an empty view must never be returned")


def test_a_result_bigger_than_the_window_goes_through_the_ladder_and_still_fits() -> None:
    messages = react_run(3)
    huge = "\n".join(f"line {i}: " + "data " * 20 for i in range(600))
    messages += [
        AIMessage("", tool_calls=[{"name": "ws_shell", "args": {"command": "pytest -q"}, "id": "big"}]),
        ToolMessage(huge + "\nexit code 1", tool_call_id="big", name="ws_shell"),
    ]
    limits = limits_for(SETTINGS, WINDOW)
    view = request_view(messages, settings=SETTINGS, limits=limits)
    assert view.ladder is not None
    assert validate_pairs(view.messages) == []
    assert count_message_tokens(view.messages) <= limits.room
    assert "exit code 1" in view.messages[-1].content  # the tail of a collapsed log survives


def test_a_jump_that_elision_alone_leaves_too_full_also_drops_the_oldest_rounds() -> None:
    # A big opening (the pack) leaves little room above the kept results: eliding alone would slide again a round
    # later, so the one jump also drops old rounds into the resume block.
    limits = limits_for(SETTINGS, WINDOW)
    pack = HumanMessage("Task: fix the bug in src/f1.py\n" + "context " * int(limits.room * 0.4))
    messages = [SystemMessage("You are a coding agent."), pack]
    views = []
    for n in range(30):
        messages += read_round(n, lines=8)
        views.append(request_view(messages, settings=SETTINGS, limits=limits))
    first = next(v for v in views if v.cuts.slides)
    assert first.cuts.elided > 0 and first.cuts.dropped_to > 2
    assert count_message_tokens(first.messages) <= limits.trigger


def test_when_the_newest_result_alone_passes_the_trigger_the_view_waits_for_the_room_instead_of_breaking() -> None:
    limits = limits_for(SETTINGS, WINDOW)
    # one result (always kept whole) that passes the trigger but not the room
    messages = next(
        m
        for lines in range(5, 400, 5)
        if count_message_tokens(m := [*react_run(0), *read_round(0, lines)]) > limits.trigger
    )
    view = request_view(messages, settings=SETTINGS, limits=limits)
    assert limits.trigger < count_message_tokens(messages) <= limits.room
    assert view.cuts.slides == 0 and view.messages == messages  # nothing a jump could win: the prefix stays


def test_big_results_are_kept_whole_only_while_they_fit_a_share_of_the_room() -> None:
    limits = limits_for(SETTINGS, WINDOW)
    # five results that together pass the trigger: a fixed keep of five would leave nothing a jump could win
    messages = next(
        m
        for lines in range(5, 80)
        if count_message_tokens(m := [*react_run(0), *itertools.chain(*(read_round(n, lines) for n in range(5)))])
        > limits.trigger
    )
    view = request_view(messages, settings=SETTINGS, limits=limits)
    whole = [m for m in view.messages if isinstance(m, ToolMessage) and m.content != ELIDED_TOOL_RESULT]
    assert 1 <= len(whole) < 5 and whole[-1] == messages[-1]  # the newest stay whole, within their share
    assert count_message_tokens(whole) <= limits.keep_room or len(whole) == 1
    assert count_message_tokens(view.messages) <= limits.trigger  # so several new rounds fit before the next jump
