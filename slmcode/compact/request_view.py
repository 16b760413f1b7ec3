"""The per-request view of a worker's conversation (request_view, which nodes/worker/model_request calls before
every request).

It never rewrites the stored conversation and never returns an empty list. Where the view cuts is a pure
function of the transcript, found by replaying every earlier request point (a fold): the boundaries move only
when the view passes the trigger (react_compact_at_percent of the room), and then in one jump. Between jumps
the elided prefix is byte-identical from one request to the next, so an OpenAI-compatible server keeps its KV
cache; each jump breaks it once.

A jump moves two boundaries. Elision: every tool result but the newest few loses its content; the newest stay whole
while together they fit KEEP_SHARE_PERCENT of the room (at least one, at most `keep`), so big results do not fill
the room and force a jump on every round. Dropping: when elision alone would leave the view within
BATCH_HEADROOM_PERCENT of the room below the trigger (the next jump a round or two away), the oldest whole rounds go
too, replaced by a resume block (condensed lines, the digest, the carryover) built from the dropped messages only,
down to DROP_TO_PERCENT of the room or the keep window. When no jump gets under the trigger (the kept results alone
fill it), none is made until the view passes the room: breaking the prefix then would buy nothing. A request still
over the room goes through the compaction ladder's deterministic rungs.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from langchain_core.messages import BaseMessage, ToolMessage

from slmcode.budget.room import Limits
from slmcode.budget.tokens import MESSAGE_OVERHEAD_TOKENS, TokenCounter, count_message_tokens, default_counter
from slmcode.compact.carryover import Carryover, carryover_for
from slmcode.compact.digest import build_digest
from slmcode.compact.elision import elide_tool_results
from slmcode.compact.ladder import LadderResult, LadderState, compact_transcript
from slmcode.compact.messages import head_length
from slmcode.compact.pairs import cut_at_or_before, cut_points, ensure_pairs, require_pairs
from slmcode.compact.prompts import ELIDED_TOOL_RESULT
from slmcode.compact.resume import prior_brief, resume_allowance, resume_message, resume_overhead
from slmcode.compact.rungs import condensed_brief
from slmcode.compact.settings import CompactSettings

# The resume block of a live drop takes at most this share of the room: the kept results need the rest. (The
# ladder's rungs, run when a request is over budget, allow it twice as much.)
LIVE_RESUME_SHARE = 0.1


@dataclass(frozen=True)
class Cuts:
    """Where one request's view cuts: the first `elided` tool results are elided; messages from the end of the
    head up to `dropped_to` are replaced by the resume block. `slides` counts boundary moves so far."""

    elided: int
    dropped_to: int
    slides: int


@dataclass(frozen=True)
class RequestView:
    messages: list[BaseMessage]
    cuts: Cuts
    ladder: LadderResult | None  # set when the cut view was still over the room and went through the ladder


def plan_cuts(
    messages: Sequence[BaseMessage], sizes: Sequence[int], limits: Limits, elided_size: int, resume_size: int
) -> Cuts:
    """Replay every request point of a well-formed transcript and return the cuts of the last one. `sizes` are
    the messages' tokens; an elided result takes `elided_size`, the resume block at most `resume_size` more."""
    head = head_length(messages)
    points = cut_points(messages)
    results = [i for i, m in enumerate(messages) if isinstance(m, ToolMessage)]
    before = [bisect.bisect_left(results, i) for i in range(len(messages) + 1)]
    total = [0, *itertools.accumulate(sizes)]
    saving = [0, *itertools.accumulate(sizes[i] - elided_size for i in results)]

    def view(i: int, e: int, d: int) -> int:
        low, high = min(e, before[d]), min(e, before[i])
        saved = saving[high] - saving[low] if high > low else 0
        return total[head] + (resume_size if d > head else 0) + total[i] - total[d] - saved

    def kept(count: int) -> int:
        """How many of the newest `count` results stay whole: while they fit the keep room, at least one."""
        n, used = 0, 0
        while n < min(count, limits.keep):
            size = sizes[results[count - 1 - n]]
            if n and used + size > limits.keep_room:
                break
            n, used = n + 1, used + size
        return n

    elided, dropped, slides = 0, head, 0
    for i in (p for p in points if p > head):
        if view(i, elided, dropped) <= limits.trigger:
            continue
        count = before[i]
        keep = kept(count)
        elide_to = max(elided, count - keep)
        keep_start = cut_at_or_before(points, results[count - keep]) if count and keep else head
        drop_to = dropped
        if view(i, elide_to, dropped) > limits.settle and keep_start > dropped:
            # Elision alone leaves no room for a batch of new rounds: drop the oldest rounds in the same jump.
            later = (p for p in points if dropped < p <= keep_start and view(i, elide_to, p) <= limits.drop_target)
            drop_to = next(later, keep_start)
        if view(i, elide_to, drop_to) > limits.trigger and view(i, elided, dropped) <= limits.room:
            continue  # no jump gets under the trigger (the kept results fill it): a break would buy nothing yet
        if (elide_to, drop_to) != (elided, dropped):
            elided, dropped, slides = elide_to, drop_to, slides + 1
    return Cuts(elided, dropped, slides)


def render_view(
    messages: Sequence[BaseMessage],
    cuts: Cuts,
    limits: Limits,
    *,
    permission_mode: str,
    carryover: Carryover | None,
    counter: TokenCounter,
) -> list[BaseMessage]:
    head = head_length(messages)
    first_result = sum(isinstance(m, ToolMessage) for m in messages[: cuts.dropped_to])
    body = elide_tool_results(messages[cuts.dropped_to :], cuts.elided, first_index=first_result)
    if cuts.dropped_to <= head:
        return [*messages[:head], *body]
    task = messages[head - 1] if head and messages[head - 1].type == "human" else None
    system = messages[: head - 1] if task is not None else messages[:head]
    dropped = messages[head : cuts.dropped_to]
    # Built from the dropped messages only, so it stays byte-identical until the next drop.
    resume = resume_message(
        task,
        brief_kind="condensed",
        brief=condensed_brief(prior_brief(task)[1], dropped),
        digest=build_digest([*([task] if task is not None else []), *dropped]),
        carryover=carryover_for(messages[: cuts.dropped_to], permission_mode=permission_mode, base=carryover),
        max_tokens=resume_allowance(limits.room, LIVE_RESUME_SHARE),
        counter=counter,
    )
    return [*system, resume, *body]


def request_view(
    messages: Sequence[BaseMessage],
    *,
    settings: CompactSettings,
    limits: Limits,
    carryover: Carryover | None = None,
    counter: TokenCounter | None = None,
    summarize: Callable[[str], str] | None = None,
    ladder_state: LadderState | None = None,
) -> RequestView:
    """The messages to send for this request, and how they were cut. A view still over the room goes through
    the ladder, with the compactor model (`summarize`) and the breaker state the caller carries between
    requests (`ladder_state`; the result's ladder.state is the next one)."""
    if not messages:
        raise ValueError("the worker's conversation is empty: there is nothing to send to the model")
    counter = counter or default_counter()
    transcript = ensure_pairs(messages)
    sizes = [count_message_tokens([m], counter) for m in transcript]
    elided_size = counter.count(ELIDED_TOOL_RESULT) + MESSAGE_OVERHEAD_TOKENS
    resume_size = resume_allowance(limits.room, LIVE_RESUME_SHARE) + resume_overhead(counter)
    cuts = plan_cuts(transcript, sizes, limits, elided_size, resume_size)
    view = render_view(
        transcript, cuts, limits, permission_mode=settings.permission, carryover=carryover, counter=counter
    )
    ladder = None
    if count_message_tokens(view, counter) > limits.room:
        ladder = compact_transcript(
            view,
            settings=settings,
            budget_tokens=limits.room,
            keep=limits.keep,
            carryover=carryover,
            counter=counter,
            source=transcript,
            summarize=summarize,
            state=ladder_state,
        )
        view = ladder.messages
    return RequestView(require_pairs(view, "pre_model_hook"), cuts, ladder)
