"""The resume message: the task text, then a <resume> block with the brief of the dropped turns, the
must-preserve digest and the carryover blocks, trimmed to a token allowance.

It replaces the task message in a compacted transcript (same id), so user and assistant turns still
alternate for strict chat templates. Its structured parts ride along in additional_kwargs for the next
compaction to merge.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage, HumanMessage

from slmcode.budget.tokens import TokenCounter, count_tokens
from slmcode.compact.carryover import Carryover
from slmcode.compact.digest import Digest, fit_bytes
from slmcode.compact.messages import RESUME_KEY, content_text, resume_data
from slmcode.compact.prompts import RESUME_SECTION, RESUME_TEMPLATE

# Upper bound of a resume block: on big windows it need not grow past this to carry the digest and carryover.
RESUME_MAX_TOKENS = 1000
DIGEST_SHRINK_STEP = 200  # bytes
PROTECTED_BLOCKS = frozenset({"task_focus", "plan"})


def resume_allowance(budget_tokens: int, share: float = 0.2) -> int:
    """Tokens the resume block may take: `share` of the budget, at most RESUME_MAX_TOKENS."""
    return max(64, min(RESUME_MAX_TOKENS, int(budget_tokens * share)))


def resume_overhead(counter: TokenCounter | None = None) -> int:
    """Tokens the resume template adds around the task text and the block."""
    return count_tokens(RESUME_TEMPLATE.format(task="", sections=""), counter)


def original_task(task: BaseMessage | None) -> str:
    if task is None:
        return ""
    stored = resume_data(task).get("task")
    return stored if isinstance(stored, str) else content_text(task)


def prior_brief(task: BaseMessage | None) -> tuple[str, str]:
    """(kind, brief) left by an earlier compaction in the task message, or ("", "")."""
    data = resume_data(task) if task is not None else {}
    return str(data.get("kind", "")), str(data.get("brief", ""))


def prior_resume_text(task: BaseMessage | None) -> str:
    """The brief and digest an earlier compaction left in the task message, as the compactor should read them."""
    data = resume_data(task) if task is not None else {}
    digest = Digest.from_dict(data["digest"]).render() if isinstance(data.get("digest"), dict) else ""
    return "\n".join(part for part in (str(data.get("brief", "")), digest) if part.strip())


def _render_block(brief_kind: str, brief: Sequence[str], digest: Digest, blocks: Sequence[tuple[str, str]]) -> str:
    sections = []
    if brief:
        sections.append(RESUME_SECTION.format(kind=brief_kind, body="\n".join(brief)))
    if not digest.is_empty():
        sections.append(RESUME_SECTION.format(kind="digest", body=digest.render()))
    sections.extend(RESUME_SECTION.format(kind=kind, body=body) for kind, body in blocks)
    return "\n".join(sections)


def resume_message(
    task: BaseMessage | None,
    *,
    brief_kind: str,
    brief: str,
    digest: Digest,
    carryover: Carryover,
    max_tokens: int,
    counter: TokenCounter | None = None,
) -> HumanMessage:
    """The task message with a resume block whose tokens stay within `max_tokens` where trimming allows.
    Condensed lines are the cheapest to lose (oldest first); an LLM brief is the dearest (it cost a model
    call), so it goes last, from its end. In between: carryover blocks from the last (work log first), digest
    items, and last of all the task focus and the plan."""
    brief_lines = [line for line in brief.splitlines() if line.strip()]
    blocks = carryover.blocks()
    digest_limit = len(digest.render().encode())
    condensed = brief_kind == "condensed"
    while True:
        block = _render_block(brief_kind, brief_lines, digest, blocks)
        if count_tokens(block, counter) <= max_tokens:
            break
        if condensed and len(brief_lines) > 1:
            brief_lines.pop(1)  # keep the header line
        elif blocks and blocks[-1][0] not in PROTECTED_BLOCKS:
            blocks.pop()  # work log, skills, verified work, recent files: the digest overlaps most of them
        elif not digest.is_empty():
            digest_limit -= DIGEST_SHRINK_STEP
            digest = fit_bytes(digest, max(digest_limit, 0))
        elif blocks:
            blocks.pop()
        elif brief_lines:
            brief_lines.pop()
        else:
            break
    task_text = original_task(task)
    data = {
        "task": task_text,
        "kind": brief_kind,
        "brief": "\n".join(brief_lines),
        "digest": digest.to_dict(),
        "carryover": carryover.model_dump(),
    }
    return HumanMessage(
        content=RESUME_TEMPLATE.format(task=task_text, sections=block).strip(),
        id=task.id if task is not None else None,
        name=task.name if task is not None else None,
        additional_kwargs={RESUME_KEY: data},
    )
