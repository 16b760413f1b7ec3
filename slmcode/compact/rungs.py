"""The rungs of the compaction ladder, cheapest first. Each takes a well-formed transcript and returns a
smaller well-formed one, or raises RungFailed saying why it could not.

microcompact  tombstone old tool results and oversized ones
collapse      head/tail-collapse oversized blocks (message text and string arguments of tool calls)
condense      replace turns older than the keep window with one line each (capped), the digest and carryover
summarize     the compactor role's model writes a structured brief of all but the last few rounds (summarize.py)
truncate      drop the oldest whole rounds until the transcript fits
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from slmcode.budget.tokens import TokenCounter, count_message_tokens, count_tokens
from slmcode.compact.carryover import Carryover, carryover_for
from slmcode.compact.digest import build_digest
from slmcode.compact.elision import elided
from slmcode.compact.messages import call_target, calls_of, content_text, exit_code, first_line, head_length
from slmcode.compact.pairs import keep_window_start, require_pairs, round_starts
from slmcode.compact.prompts import (
    COLLAPSED_CHARS_MARKER,
    COLLAPSED_MARKER,
    CONDENSED_HEADER,
    CONDENSED_OMITTED,
)
from slmcode.compact.resume import prior_brief, resume_allowance, resume_message
from slmcode.compact.settings import CompactSettings

MIN_BLOCK_TOKENS = 150
CONDENSED_MAX_LINES = 24
CONDENSED_LINE_CHARS = 140
CHARS_PER_TOKEN = 3  # conservative for code: collapse sizes are estimated before counting


@dataclass(frozen=True)
class Compactor:
    """The compactor role's model as the LLM rung uses it: `ask` sends one prompt; a prompt may hold `limit`
    tokens (the role's budget, from the run's role table: the compactor may be pinned to another model)."""

    ask: Callable[[str], str]
    limit: int

    def __call__(self, prompt: str) -> str:
        return self.ask(prompt)


class RungFailed(Exception):
    """A rung could not produce a smaller transcript; the message says why (it goes into the ladder's report)."""


@dataclass(frozen=True)
class RungContext:
    settings: CompactSettings
    budget_tokens: int
    target_tokens: int
    keep: int
    counter: TokenCounter
    carryover: Carryover | None = None
    summarize: Callable[[str], str] | None = None
    # Tool results as stored, by tool_call_id: the digest reads exit codes and errors from them even after
    # an earlier rung (or the hook) tombstoned their content.
    originals: Mapping[str, ToolMessage] = field(default_factory=dict)

    def original(self, message: BaseMessage) -> BaseMessage:
        if isinstance(message, ToolMessage):
            return self.originals.get(message.tool_call_id, message)
        return message

    def tokens(self, messages: Sequence[BaseMessage]) -> int:
        return count_message_tokens(messages, self.counter)

    @property
    def brief_keep(self) -> int:
        """Tool results the LLM rung keeps verbatim: fewer than condense keeps, since the brief covers the rest."""
        return max(1, self.keep // 2)

    @property
    def block_tokens(self) -> int:
        return max(MIN_BLOCK_TOKENS, self.budget_tokens // 8)


def collapse_text(text: str, max_tokens: int) -> str:
    """Head and tail of `text` around a marker, about `max_tokens` long; whole lines where lines are short."""
    budget = max_tokens * CHARS_PER_TOKEN
    if len(text) <= budget:
        return text
    lines = text.splitlines()
    head_budget, tail_budget = budget * 2 // 3, budget // 3
    head: list[str] = []
    while lines and len(lines[0]) + sum(map(len, head)) < head_budget:
        head.append(lines.pop(0))
    tail: list[str] = []
    while lines and len(lines[-1]) + sum(map(len, tail)) < tail_budget:
        tail.insert(0, lines.pop())
    if head and tail and lines:
        return "\n".join([*head, COLLAPSED_MARKER.format(count=len(lines)), *tail])
    middle = len(text) - head_budget - tail_budget
    return text[:head_budget] + "\n" + COLLAPSED_CHARS_MARKER.format(count=middle) + "\n" + text[-tail_budget:]


def microcompact(messages: list[BaseMessage], ctx: RungContext) -> list[BaseMessage]:
    results = [i for i, m in enumerate(messages) if isinstance(m, ToolMessage)]
    recent = set(results[-ctx.keep :])
    oversized = ctx.budget_tokens // 4
    last = results[-1] if results else -1
    out = list(messages)
    for i in results:
        if i not in recent or (i != last and count_tokens(content_text(messages[i]), ctx.counter) > oversized):
            out[i] = elided(cast(ToolMessage, messages[i]))  # results: indices of ToolMessages
    return require_pairs(out, "microcompact")


def _collapse_args(message: AIMessage, limit: int) -> AIMessage:
    calls = []
    for call in message.tool_calls:
        args = {k: collapse_text(v, limit) if isinstance(v, str) else v for k, v in call["args"].items()}
        calls.append({**call, "args": args})
    return message.model_copy(update={"tool_calls": calls})


def collapse(messages: list[BaseMessage], ctx: RungContext) -> list[BaseMessage]:
    limit = ctx.block_tokens
    out = list(messages)
    for i in range(head_length(messages), len(messages)):
        message = out[i]
        text = content_text(message)
        if count_tokens(text, ctx.counter) > limit:
            message = message.model_copy(update={"content": collapse_text(text, limit)})
        if isinstance(message, AIMessage) and message.tool_calls:
            message = _collapse_args(message, limit)
        out[i] = message
    return require_pairs(out, "collapse")


def condensed_line(message: BaseMessage, calls: dict[str, str]) -> str:
    """One line for one message: who, what it did, how it ended."""
    text = first_line(content_text(message), 80)
    if isinstance(message, ToolMessage):
        body = content_text(message).strip()
        code, lines = exit_code(body), body.count("\n") + 1
        # A one-line result ("Edited x.py ...", "Error: ...") says what happened; a long one is output, not news.
        outcome = (
            f"exit code {code}"
            if code is not None
            else (text if lines == 1 or body.startswith("Error") else f"{lines} lines")
        )
        line = f"result {calls.get(message.tool_call_id, message.name or 'tool')}: {outcome or '(empty)'}"
    elif isinstance(message, AIMessage):
        called = ", ".join(f"{c.get('name')}({call_target(c)})" for c in message.tool_calls)
        line = "assistant: " + "; ".join(part for part in (text, f"called {called}" if called else "") if part)
    else:
        line = f"{message.type}: {text}"
    return first_line(line, CONDENSED_LINE_CHARS)


def condensed_brief(previous: str, dropped: Sequence[BaseMessage]) -> str:
    calls = {c["id"]: c.get("name", "tool") for m in dropped for c in calls_of(m) if c.get("id")}
    old = [line for line in previous.splitlines()[1:] if line.strip()]
    lines = [*old, *(condensed_line(m, calls) for m in dropped)]
    omitted = max(0, len(lines) - CONDENSED_MAX_LINES)
    kept = lines[omitted:]
    if omitted:
        kept.insert(0, CONDENSED_OMITTED.format(count=omitted))
    return "\n".join([CONDENSED_HEADER, *kept])


def replace_older(messages: list[BaseMessage], ctx: RungContext, start: int, *, kind: str, brief: str) -> list:
    """messages[head:start] replaced by the resume message carrying `brief`, the digest and the carryover."""
    head = head_length(messages)
    task = messages[head - 1] if head and messages[head - 1].type == "human" else None
    system = messages[: head - 1] if task is not None else messages[:head]
    # The task message carries earlier digests; tombstoned results are read as they were stored.
    dropped = ([task] if task is not None else []) + [ctx.original(m) for m in messages[head:start]]
    resume = resume_message(
        task,
        brief_kind=kind,
        brief=brief,
        digest=build_digest(dropped),
        carryover=carryover_for(
            [ctx.original(m) for m in messages], permission_mode=ctx.settings.permission, base=ctx.carryover
        ),
        max_tokens=resume_allowance(ctx.budget_tokens),
        counter=ctx.counter,
    )
    return require_pairs([*system, resume, *messages[start:]], kind)


def older_part(messages: list[BaseMessage], keep: int) -> tuple[int, int]:
    head = head_length(messages)
    start = keep_window_start(messages, keep, floor=head)
    if start <= head:
        raise RungFailed("nothing is older than the keep window")
    return head, start


def condense(messages: list[BaseMessage], ctx: RungContext) -> list[BaseMessage]:
    head, start = older_part(messages, ctx.keep)
    _, previous = prior_brief(messages[head - 1] if head else None)
    return replace_older(messages, ctx, start, kind="condensed", brief=condensed_brief(previous, messages[head:start]))


def first_fitting(starts: Sequence[int], measure: Callable[[int], int], limit: int) -> int | None:
    """The earliest start whose measure fits `limit`, by binary search (measure shrinks as start grows);
    about log2(len(starts)) probes: the bounded retries of prompt-round truncation."""
    low, high, found = 0, len(starts) - 1, None
    while low <= high:
        middle = (low + high) // 2
        if measure(starts[middle]) <= limit:
            found, high = starts[middle], middle - 1
        else:
            low = middle + 1
    return found


def truncate(messages: list[BaseMessage], ctx: RungContext) -> list[BaseMessage]:
    head = head_length(messages)
    starts = round_starts(messages, head)
    if len(starts) < 2:
        raise RungFailed("only one round is left")
    kind, previous = prior_brief(messages[head - 1] if head else None)

    def build(start: int) -> list[BaseMessage]:
        return replace_older(messages, ctx, start, kind=kind or "condensed", brief=previous)

    start = first_fitting(starts[1:], lambda s: ctx.tokens(build(s)), ctx.target_tokens) or starts[-1]
    return build(start)
