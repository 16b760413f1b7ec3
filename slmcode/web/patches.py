"""Pending review patches: each one's diff (or why `apply` would refuse it), with Apply and Reject buttons.

Apply and Reject call slmcode.tools.pending's apply_pending / reject_pending, the functions behind
`slmcode apply` and `slmcode reject`, so the page refuses exactly what the command refuses (an altered, stale
or protected patch) with the same one-line reason.
"""

from __future__ import annotations

from pathlib import Path

from slmcode.errors import PatchError
from slmcode.tools.pending import apply_pending, plan_pending, reject_pending
from slmcode.web.html import diff_block, esc, form_button, page, part


def notice_html(message: str, *, error: bool = False) -> str:
    return f'<p class="notice{" error" if error else ""}" role=status>{esc(message)}</p>' if message else ""


def patches_page(workspace: Path, token: str, notice: str = "", error: bool = False) -> str:
    try:
        plans = plan_pending(workspace)
    except PatchError as exc:  # a file in the pending folder that is not a patch
        plans, notice, error = [], str(exc), True
    cards = []
    for plan in plans:
        if isinstance(plan, PatchError):
            cards.append(f"<div class=card>{notice_html(f'refused: {plan}', error=True)}</div>")
            continue
        p = plan.patch
        run = (
            f' <a href="/runs/{esc(part(p.run_id))}/tasks/{esc(part(p.task_id))}">task {esc(p.task_id)}</a>'
            if p.run_id and p.task_id
            else ""
        )
        buttons = (
            form_button("/patches/apply", f"Apply {p.id}", token, {"id": p.id})
            + " "
            + form_button("/patches/reject", f"Reject {p.id}", token, {"id": p.id}, danger=True)
        )
        cards.append(
            f'<div class=card id="patch-{esc(p.id)}"><h2>patch {esc(p.id)}: {esc(p.path)}</h2>'
            f"<p>{run}</p>{diff_block(plan.diff())}<p>{buttons}</p></div>"
        )
    body = f"<h1>Pending patches</h1>{notice_html(notice, error=error)}" + (
        "".join(cards)
        or "<p>No pending patches. A run with <code>--permission review</code> stages its edits here.</p>"
    )
    return page("Pending patches", body, active="/patches")


def apply_one(workspace: Path, patch_id: str) -> tuple[str, bool]:
    """(what happened, whether it failed), in the words `slmcode apply` uses."""
    try:
        applied = apply_pending(workspace, [patch_id])
    except PatchError as exc:
        return str(exc), True
    return "; ".join(f"applied {p.id}  {p.path}" for p in applied), False


def reject_one(workspace: Path, patch_id: str) -> tuple[str, bool]:
    try:
        rejected = reject_pending(workspace, [patch_id])
    except PatchError as exc:
        return str(exc), True
    return "; ".join(f"rejected {i}  {path}" for i, path in rejected), False
