"""The compaction ladder: for a checkpointed or resumed transcript and for any request over budget.

Cheapest rung first (microcompact, collapse, condense, summarize, truncate). The transcript is re-measured
after every rung; a rung whose estimate did not drop is rejected; the ladder stops once it is under the
target, which sits compact_hysteresis_percent below the budget. A compaction that does not open that much
headroom pauses the LLM rung until the transcript has grown by the same margin, so a stuck transcript is not
re-summarised every turn. After compact_max_failures consecutive failures the circuit breaker opens for the
rest of the run: the LLM rung is skipped, the ladder degrades to the deterministic rungs and says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from langchain_core.messages import BaseMessage, ToolMessage

from slmcode.budget.tokens import TokenCounter, count_message_tokens, default_counter
from slmcode.compact.carryover import Carryover
from slmcode.compact.elision import is_elided
from slmcode.compact.pairs import ensure_pairs, require_pairs
from slmcode.compact.rungs import RungContext, RungFailed, collapse, condense, microcompact, truncate
from slmcode.compact.settings import CompactSettings
from slmcode.compact.summarize import summarize as summarize_rung

Rung = Callable[[list[BaseMessage], RungContext], list[BaseMessage]]
RUNG_FUNCTIONS: tuple[tuple[str, Rung], ...] = (
    ("microcompact", microcompact),
    ("collapse", collapse),
    ("condense", condense),
    ("summarize", summarize_rung),
    ("truncate", truncate),
)


@dataclass(frozen=True)
class LadderState:
    """What the ladder remembers between calls of one run (keep it in the run's state)."""

    consecutive_failures: int = 0
    paused_at: int | None = None  # tokens after a compaction that opened too little headroom

    def breaker_open(self, settings: CompactSettings) -> bool:
        return self.consecutive_failures >= settings.compact_max_failures


@dataclass(frozen=True)
class RungRecord:
    name: str
    tokens_before: int
    tokens_after: int
    accepted: bool
    note: str = ""


@dataclass(frozen=True)
class LadderResult:
    messages: list[BaseMessage]
    rungs: list[RungRecord] = field(default_factory=list)
    degraded: bool = False
    reason: str = ""
    state: LadderState = field(default_factory=LadderState)


def _skip_llm(summarizer: object, breaker: bool, paused: bool) -> str:
    if summarizer is None:
        return "no compactor model"
    if breaker:
        return "circuit breaker open"
    return "auto-compaction paused (hysteresis)" if paused else ""


def compact_transcript(
    messages: Sequence[BaseMessage],
    *,
    settings: CompactSettings,
    budget_tokens: int,
    summarize: Callable[[str], str] | None = None,
    state: LadderState | None = None,
    carryover: Carryover | None = None,
    keep: int | None = None,
    counter: TokenCounter | None = None,
    source: Sequence[BaseMessage] | None = None,
) -> LadderResult:
    """Run the ladder until `messages` fit `budget_tokens` with the hysteresis margin to spare. `source` is the
    stored transcript `messages` were cut from, when they are a view (the digest reads tool results there)."""
    state = state or LadderState()
    counter = counter or default_counter()
    current = require_pairs(ensure_pairs(messages), "ensure_pairs")
    tokens = count_message_tokens(current, counter)
    if tokens <= budget_tokens:
        return LadderResult(current, [], False, "under budget", state)
    margin = int(budget_tokens * settings.compact_hysteresis_percent / 100)
    ctx = RungContext(
        settings=settings,
        budget_tokens=budget_tokens,
        target_tokens=budget_tokens - margin,
        keep=keep or settings.react_keep_tool_results,
        counter=counter,
        carryover=carryover,
        summarize=summarize,
        originals={
            m.tool_call_id: m for m in [*(source or ()), *messages] if isinstance(m, ToolMessage) and not is_elided(m)
        },
    )
    breaker = state.breaker_open(settings)
    paused = state.paused_at is not None and tokens < state.paused_at + margin
    skip_llm = _skip_llm(summarize, breaker, paused)
    records: list[RungRecord] = []
    llm_failure = ""
    for name, rung in RUNG_FUNCTIONS:
        if name == "summarize" and skip_llm:
            records.append(RungRecord(name, tokens, tokens, False, f"skipped: {skip_llm}"))
            continue
        try:
            candidate = rung(current, ctx)
        except RungFailed as exc:
            records.append(RungRecord(name, tokens, tokens, False, str(exc)))
            llm_failure = str(exc) if name == "summarize" else llm_failure
            continue
        after = count_message_tokens(candidate, counter)
        accepted = after < tokens
        records.append(RungRecord(name, tokens, after, accepted, "" if accepted else "estimate did not drop"))
        if accepted:
            current, tokens = candidate, after
        if tokens <= ctx.target_tokens:
            break
    fits = tokens <= budget_tokens
    failed = not fits or bool(llm_failure)
    # While the breaker is open the count stays: the LLM rung was not tried, so nothing proved it healthy.
    failures = state.consecutive_failures + 1 if failed else (state.consecutive_failures if breaker else 0)
    new_state = LadderState(failures, tokens if tokens > ctx.target_tokens else None)
    reasons = []
    if breaker:
        reasons.append(
            f"circuit breaker open after {state.consecutive_failures} consecutive compaction failures: "
            "the compactor model was skipped and older turns were condensed or dropped without it"
        )
    if llm_failure:
        reasons.append(f"LLM compaction failed: {llm_failure}")
    reasons.append(f"{'fits' if fits else 'still over budget'}: {tokens} of {budget_tokens} tokens")
    return LadderResult(current, records, breaker or not fits, "; ".join(reasons), new_state)
