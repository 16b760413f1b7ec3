import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_openai import ChatOpenAI

from slmcode.budget.tokens import count_message_tokens, default_counter
from slmcode.compact.ladder import RUNG_FUNCTIONS, LadderState, compact_transcript
from slmcode.compact.pairs import validate_pairs
from slmcode.compact.rungs import RungContext, RungFailed
from slmcode.config import Settings
from slmcode.errors import EndpointError
from tests.compact.transcripts import transcripts

SETTINGS = Settings(model="test-model")
BRIEF = "## Goal\n- fix src/app.py\n## Progress\n- read src/app.py\n## Key facts\n- x\n## Next step\n- run pytest -q"


def long_run(rounds: int = 30, lines: int = 40) -> list:
    messages = [SystemMessage("You are a coding agent."), HumanMessage("Task: make pytest -q pass.")]
    for n in range(rounds):
        name, args = (
            ("ws_shell", {"command": f"pytest -q tests/t{n}.py"})
            if n % 3 == 0
            else ("ws_read", {"path": f"src/m{n}.py"})
        )
        body = "\n".join(f"{i:>4}  x_{n}_{i} = f(x_{i})" for i in range(lines))
        body += f"\nexit code {n % 2}" if name == "ws_shell" else ""
        messages += [
            AIMessage(f"Step {n}.", tool_calls=[{"name": name, "args": args, "id": f"c{n}"}]),
            ToolMessage(body, tool_call_id=f"c{n}", name=name),
        ]
    return messages


@settings(max_examples=20, deadline=None)
@given(transcripts(max_words=150), st.integers(200, 3000))
def test_no_rung_and_no_ladder_output_holds_an_orphan(messages: list, budget: int) -> None:
    ctx = RungContext(SETTINGS, budget, budget - budget // 20, 5, default_counter(), summarize=lambda _: BRIEF)
    for _, rung in RUNG_FUNCTIONS:
        with contextlib.suppress(RungFailed):
            assert validate_pairs(rung(list(messages), ctx)) == []
    result = compact_transcript(messages, settings=SETTINGS, budget_tokens=budget, summarize=lambda _: BRIEF)
    assert validate_pairs(result.messages) == []
    assert result.messages


def test_the_ladder_stops_at_the_first_rung_that_gets_under_the_threshold() -> None:
    messages = long_run()
    total = count_message_tokens(messages)
    result = compact_transcript(messages, settings=SETTINGS, budget_tokens=total // 2)
    assert [r.name for r in result.rungs] == ["microcompact"]
    assert result.rungs[0].accepted and result.rungs[0].tokens_after < total // 2
    assert not result.degraded and result.state == LadderState()


def test_a_rung_whose_estimate_does_not_drop_is_rejected() -> None:
    messages = long_run(rounds=4, lines=3)  # four small results: nothing old, nothing oversized to tombstone
    messages.append(AIMessage("Done. " + "Here is what I changed and why. " * 200))
    result = compact_transcript(messages, settings=SETTINGS, budget_tokens=800)
    micro = result.rungs[0]
    assert micro.name == "microcompact" and not micro.accepted and micro.tokens_after == micro.tokens_before
    assert count_message_tokens(result.messages) <= 800


def test_condensing_replaces_old_turns_with_lines_the_digest_and_the_carryover() -> None:
    messages = long_run(rounds=60, lines=3)  # small results: microcompact cannot get there alone
    result = compact_transcript(messages, settings=SETTINGS, budget_tokens=1500)
    assert [(r.name, r.accepted) for r in result.rungs][-1] == ("condense", True)
    resume = result.messages[1]
    assert resume.content.startswith("Task: make pytest -q pass.")
    for block in ("<condensed>", "<digest>", "<recent_files>", "<plan>"):
        assert block in resume.content
    assert "permission mode: auto" in resume.content
    assert "pytest -q tests/t51.py -> exit 1" in resume.content  # exit status read from the stored result
    assert validate_pairs(result.messages) == []
    tool_ids = [m.tool_call_id for m in result.messages if isinstance(m, ToolMessage)]
    assert tool_ids[-5:] == [f"c{n}" for n in range(55, 60)]


def test_the_llm_rung_runs_when_condensing_is_not_enough() -> None:
    calls: list[str] = []
    messages = long_run(rounds=30, lines=12)
    budget = 900
    result = compact_transcript(
        messages, settings=SETTINGS, budget_tokens=budget, summarize=lambda p: calls.append(p) or BRIEF
    )
    assert calls, [(r.name, r.tokens_after, r.note) for r in result.rungs]
    assert "## Goal" in result.messages[1].content
    assert "pytest -q tests/t27.py" in calls[0]


def test_a_preamble_brief_is_refused_and_counted_as_a_failure() -> None:
    messages = long_run(rounds=30, lines=12)
    result = compact_transcript(
        messages, settings=SETTINGS, budget_tokens=900, summarize=lambda _: "Sure! Here is the summary:\n" + BRIEF
    )
    summarize = next(r for r in result.rungs if r.name == "summarize")
    assert not summarize.accepted and "preamble" in summarize.note
    assert result.state.consecutive_failures == 1
    assert validate_pairs(result.messages) == []


def test_three_failures_open_the_circuit_breaker_which_degrades_and_says_so() -> None:
    calls = 0

    def broken(_: str) -> str:
        nonlocal calls
        calls += 1
        raise EndpointError("compactor endpoint refused the connection")

    messages, state = long_run(rounds=30, lines=12), None
    for _ in range(3):
        result = compact_transcript(messages, settings=SETTINGS, budget_tokens=900, summarize=broken, state=state)
        state = result.state
        assert "LLM compaction failed" in result.reason
    assert calls == 3 and state.consecutive_failures == 3
    result = compact_transcript(messages, settings=SETTINGS, budget_tokens=900, summarize=broken, state=state)
    assert calls == 3  # the compactor is not asked again
    assert result.degraded and "circuit breaker" in result.reason
    assert count_message_tokens(result.messages) <= 900
    assert result.state.breaker_open(SETTINGS)


def test_a_compaction_without_enough_headroom_pauses_the_llm_rung() -> None:
    messages = long_run(rounds=6, lines=3)
    messages.append(HumanMessage("please also " + "check everything carefully " * 60))
    total = count_message_tokens(messages)
    result = compact_transcript(messages, settings=SETTINGS, budget_tokens=total - 5, summarize=lambda _: BRIEF)
    # the long user turn cannot be dropped or summarised (it is in the keep window): little headroom opens
    if result.state.paused_at is not None:
        again = compact_transcript(
            messages, settings=SETTINGS, budget_tokens=total - 5, summarize=lambda _: BRIEF, state=result.state
        )
        note = next(r.note for r in again.rungs if r.name == "summarize")
        assert "paused" in note
    else:
        assert count_message_tokens(result.messages) <= (total - 5) * 0.95


def test_the_compactor_is_reached_over_http(fake_llm) -> None:
    fake_llm.push(BRIEF)
    model = ChatOpenAI(model="fake-model", base_url=fake_llm.url, api_key="sk-test", max_retries=0)

    def summarize(prompt: str) -> str:
        return str(model.invoke(prompt).content)

    result = compact_transcript(
        long_run(rounds=30, lines=12), settings=SETTINGS, budget_tokens=900, summarize=summarize
    )
    assert ("summarize", True) in [(r.name, r.accepted) for r in result.rungs]
    assert "## Next step" in result.messages[1].content
    sent = fake_llm.requests[0]["messages"][-1]["content"]
    assert "## Key facts" in sent  # the compactor's instructions
    assert "pytest -q tests/t24.py -> exit 0" in sent  # the earlier rung's digest reaches the compactor
