"""The LLM rung: the compactor role's model turns all but the last few rounds into a structured brief.

The request must fit the compactor's own budget: when it does not, the oldest whole rounds are cut from the
request (prompt-round truncation, a bounded binary search); the digest still covers them. The brief is refused
when it is empty, opens with a preamble, lacks the headings, or is not shorter than what it replaces.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from langchain_core.messages import BaseMessage, ToolMessage

from slmcode.budget.compute import role_budget
from slmcode.budget.tokens import count_tokens
from slmcode.compact.gate import opens_with_preamble
from slmcode.compact.messages import calls_of, content_text
from slmcode.compact.pairs import round_starts
from slmcode.compact.prompts import BRIEF_HEADINGS, COMPACTOR_PREVIOUS, COMPACTOR_PROMPT, COMPACTOR_SYSTEM
from slmcode.compact.resume import prior_resume_text
from slmcode.compact.rungs import (
    Compactor,
    RungContext,
    RungFailed,
    collapse_text,
    first_fitting,
    older_part,
    replace_older,
)
from slmcode.errors import SlmcodeError

COMPACTOR_RESULT_TOKENS = 300  # how much of each old tool result the compactor gets to read
MIN_BRIEF_HEADINGS = 2


def compactor_transcript(messages: Sequence[BaseMessage]) -> str:
    """The older turns as plain text for the compactor: tool results collapsed, calls as JSON."""
    blocks = []
    for message in messages:
        text = content_text(message)
        if isinstance(message, ToolMessage):
            blocks.append(f"[result {message.name or 'tool'}]\n{collapse_text(text, COMPACTOR_RESULT_TOKENS)}")
            continue
        calls = "".join(
            f"\n  call {c.get('name')} {json.dumps(c.get('args'), sort_keys=True)[:400]}" for c in calls_of(message)
        )
        blocks.append(f"[{message.type}] {text}{calls}")
    return "\n\n".join(blocks)


def compactor_prompt(previous: str, older: Sequence[BaseMessage]) -> str:
    prior = COMPACTOR_PREVIOUS.format(brief=previous) if previous else ""
    return COMPACTOR_SYSTEM + "\n\n" + COMPACTOR_PROMPT.format(previous=prior, transcript=compactor_transcript(older))


def compactor_limit(ctx: RungContext) -> int:
    """How many tokens a compaction request may hold: the run's compactor role says; a bare callable (a library
    caller without a role table) gets the compactor's share of the configured model."""
    if isinstance(ctx.summarize, Compactor):
        return ctx.summarize.limit
    return role_budget(ctx.settings, "compactor").available


def summarize(messages: list[BaseMessage], ctx: RungContext) -> list[BaseMessage]:
    if ctx.summarize is None:
        raise RungFailed("no compactor model")
    head, start = older_part(messages, ctx.brief_keep)
    previous = prior_resume_text(messages[head - 1] if head else None)
    starts = [head, *(p for p in round_starts(messages, head) if head < p < start)]

    def prompt_tokens(first: int) -> int:
        return count_tokens(compactor_prompt(previous, messages[first:start]), ctx.counter)

    # Rounds cut from the request still reach the digest: replace_older builds it from all of head:start.
    first = first_fitting(starts, prompt_tokens, compactor_limit(ctx))
    if first is None:
        raise RungFailed("the compaction request does not fit the compactor's window even with one round")
    try:
        brief = ctx.summarize(compactor_prompt(previous, messages[first:start])).strip()
    except SlmcodeError as exc:
        raise RungFailed(f"the compactor failed: {exc}") from exc
    if not brief or opens_with_preamble(brief):
        raise RungFailed("the compactor's brief is empty or opens with a preamble")
    if sum(h in brief for h in BRIEF_HEADINGS) < MIN_BRIEF_HEADINGS:
        raise RungFailed("the compactor's brief lacks the required headings")
    if count_tokens(brief, ctx.counter) >= ctx.tokens(messages[head:start]):
        raise RungFailed("the compactor's brief is not shorter than the turns it replaces")
    return replace_older(messages, ctx, start, kind="brief", brief=brief)
