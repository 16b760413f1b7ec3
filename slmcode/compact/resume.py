"""The resume message: the task text, then a <resume> block with the brief of the dropped turns, the
must-preserve digest and the carryover blocks, trimmed to a token allowance.

It replaces the task message in a compacted transcript (same id), so user and assistant turns still
alternate for strict chat templates. Its structured parts ride along in additional_kwargs for the next
compaction to merge.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage, HumanMessage

from slmcode.compact.carryover import Carryover
from slmcode.compact.digest import Digest, fit_bytes
from slmcode.compact.messages import RESUME_KEY, content_text, resume_data
from slmcode.compact.prompts import RESUME_SECTION, RESUME_TEMPLATE
from slmcode.packs.tokens import TokenCounter, count_tokens

# Upper bound of a resume block: on big windows it need not grow past this to carry the digest and carryover.
RESUME_MAX_TOKENS = 1000
DIGEST_SHRINK_STEP = 200  # bytes


def resume_allowance(budget_tokens: int) -> int:
    """Tokens the resume block may take: a fifth of the budget, at most RESUME_MAX_TOKENS."""
    return max(64, min(RESUME_MAX_TOKENS, budget_tokens // 5))


def original_task(task: BaseMessage | None) -> str:
    if task is None:
        return ""
    stored = resume_data(task).get("task")
    return stored if isinstance(stored, str) else content_text(task)


def prior_brief(task: BaseMessage | None) -> tuple[str, str]:
    """(kind, brief) left by an earlier compaction in the task message, or ("", "")."""
    data = resume_data(task) if task is not None else {}
    return str(data.get("kind", "")), str(data.get("brief", ""))


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
    """The task message with a resume block whose tokens stay within `max_tokens` where trimming allows:
    brief lines go first (oldest first for condensed lines), then the work log, then digest items, then the
    other carryover blocks from the last."""
    brief_lines = [line for line in brief.splitlines() if line.strip()]
    blocks = carryover.blocks()
    digest_limit = len(digest.render().encode())
    while True:
        block = _render_block(brief_kind, brief_lines, digest, blocks)
        if count_tokens(block, counter) <= max_tokens:
            break
        if len(brief_lines) > 1:
            brief_lines.pop(1 if brief_kind == "condensed" else -1)  # condensed: keep the header line
        elif blocks and blocks[-1][0] == "work_log":
            blocks.pop()
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
    data = {"task": task_text, "kind": brief_kind, "brief": "\n".join(brief_lines), "digest": digest.to_dict(),
            "carryover": carryover.model_dump()}
    return HumanMessage(
        content=RESUME_TEMPLATE.format(task=task_text, sections=block).strip(),
        id=task.id if task is not None else None,
        name=task.name if task is not None else None,
        additional_kwargs={RESUME_KEY: data},
    )
