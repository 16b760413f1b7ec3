"""A task's page: its verdicts with their evidence, the edits its workers made as diffs, the packs each role
received with section sizes, its conversations as the model saw them; and the page of one pack's full text.

The diffs come from the trace's tool calls (what the model asked ws_edit/ws_write to do, in order), so they
show each edit as it was made, for a run in any permission mode; a patch of this task still waiting for
review is shown as `slmcode diff` would show it.
"""

from __future__ import annotations

from pathlib import Path

from slmcode.errors import PatchError
from slmcode.store.trace import TraceStore
from slmcode.store.trace_rows import Event
from slmcode.store.trace_view import first_line
from slmcode.tools.pending import plan_pending, unified_diff
from slmcode.tools.registry import WRITE, WRITE_TOOLS
from slmcode.web.board import task_board
from slmcode.web.conversation import conversations_html
from slmcode.web.html import diff_block, esc, page, part, table
from slmcode.web.runs import status_cell


def edit_diff(event: Event) -> tuple[str, str]:
    """(path, diff) of one recorded edit call."""
    args = event.data.get("args") or {}
    path = str(args.get("path", "?"))
    if event.data.get("name") == WRITE:
        return path, unified_diff(path, "", str(args.get("content", "")))
    return path, unified_diff(path, str(args.get("old_str", "")), str(args.get("new_str", "")))


def verdicts_html(events: list[Event]) -> str:
    """Each criterion once, at its latest check, with how many checks came before: a task corrected four
    times checked the same criterion four times, and the page opened with the same pytest failure four times."""
    # verify records each verdict twice (the live event and the one with evidence): the evidence one counts.
    checks: dict[str, list[Event]] = {}
    for e in events:
        if e.kind == "verdict" and "evidence" in e.data:
            checks.setdefault(str(e.data.get("criterion")), []).append(e)
    rows = []
    for criterion, seen in checks.items():
        last = seen[-1]
        earlier = [str(e.data.get("status")) for e in seen[:-1]]
        before = f"<br><small class=muted>{len(earlier)} earlier: {esc(', '.join(earlier))}</small>" if earlier else ""
        rows.append(
            [
                esc(criterion),
                status_cell(str(last.data.get("status"))) + before,
                f"<pre>{esc(last.data.get('evidence') or '')}</pre>",
            ]
        )
    return (
        table(["criterion", "latest verdict", "evidence"], rows, cls="stack")
        if rows
        else "<p class=muted>No verdicts yet.</p>"
    )


def edits_html(events: list[Event]) -> str:
    edits = [e for e in events if e.kind == "tool_call" and e.data.get("name") in WRITE_TOOLS and e.data.get("ok")]
    if not edits:
        return "<p class=muted>No edits recorded.</p>"
    parts = []
    for event in edits:
        path, diff = edit_diff(event)
        parts.append(
            f"<div class=card><strong>{esc(path)}</strong> <span class=muted>{esc(event.data.get('name'))}"
            f" by {esc(event.role or 'worker')}, event #{esc(event.seq)}</span>{diff_block(diff)}</div>"
        )
    return "".join(parts)


def pending_html(workspace: Path, run_id: str, task_id: str) -> str:
    parts = []
    for plan in plan_pending(workspace):
        if isinstance(plan, PatchError):
            continue  # the patches page names every refusal
        if plan.patch.run_id == run_id and plan.patch.task_id == task_id:
            parts.append(
                f"<div class=card><strong>{esc(plan.patch.path)}</strong> "
                f'<a href="/patches">pending patch {esc(plan.patch.id)}</a>{diff_block(plan.diff())}</div>'
            )
    return "<h2>Waiting for review</h2>" + "".join(parts) if parts else ""


def sections_html(sections: list, budget: int) -> str:
    largest = max([int(t) for _, t in sections] + [1])
    rows = [
        [esc(name), esc(tokens), f'<meter min=0 max="{largest}" value="{int(tokens)}">{esc(tokens)}</meter>']
        for name, tokens in sections
    ]
    return table(["section", "tokens", ""], rows)


def packs_html(run_id: str, task_id: str, events: list[Event]) -> str:
    # Each pack is recorded twice (the stored pack's event, with its hash, and the live event): the first counts.
    packs = [e for e in events if e.kind == "pack" and "hash" in e.data]
    if not packs:
        return "<p class=muted>No packs recorded for this task.</p>"
    parts = []
    for event in packs:
        d, role = event.data, event.role or ""
        link = f"/runs/{esc(part(run_id))}/pack?role={esc(part(role))}&amp;task={esc(part(task_id))}"
        parts.append(
            f"<div class=card><strong>{esc(role)}</strong> pack, event #{esc(event.seq)}: {esc(d.get('tokens'))} of "
            f'{esc(d.get("budget"))} tokens · <a href="{link}">read the last {esc(role)} pack</a>'
            f"{sections_html(d.get('sections') or [], int(d.get('budget') or 0))}</div>"
        )
    return "".join(parts)


def notes_html(notes: list[str]) -> str:
    """The latest review note in full; the earlier ones folded: each round repeats the same check's output."""
    if not notes:
        return ""
    latest = f"<ul class=notes><li>{esc(notes[-1])}</li></ul>"
    if len(notes) == 1:
        return latest
    earlier = "".join(f"<li>{esc(n)}</li>" for n in notes[:-1])
    summary = f"<summary>{len(notes) - 1} earlier note(s)</summary>"
    return f"{latest}<details>{summary}<ul class=notes>{earlier}</ul></details>"


def task_page(store: TraceStore, workspace: Path, run_id: str, task_id: str) -> str | None:
    run = store.run(run_id)
    events = [e for e in store.timeline(run.run_id) if e.task_id == task_id]
    if not events:
        return None
    card = next((c for c in task_board(events) if c.task_id == task_id), None)
    title = card.title if card and card.title else task_id
    back = f'<p><a href="/runs/{esc(part(run.run_id))}">← {esc(first_line(run.query, 80) or run.run_id)}</a></p>'
    status = status_cell(card.status) if card else ""
    notes = notes_html(card.notes if card else [])
    body = (
        f"{back}<h1>Task {esc(task_id)}: {esc(title)}</h1><p>{status}</p>"
        + (f"<h2>Review notes</h2>{notes}" if notes else "")
        + f"<h2>Verdicts</h2>{verdicts_html(events)}"
        + pending_html(workspace, run.run_id, task_id)
        + f"<h2 id=files>Files changed</h2>{edits_html(events)}"
        + f"<h2 id=packs>Packs</h2>{packs_html(run.run_id, task_id, events)}"
        + "<h2 id=conversation>Conversation as the model saw it</h2>"
        + conversations_html(workspace, run.run_id, task_id, events)
    )
    return page(f"Task {task_id}", body, active="/")


def pack_page(store: TraceStore, run_id: str, role: str, task_id: str | None) -> str | None:
    run = store.run(run_id)
    pack = store.pack(run.run_id, role, task_id)
    if pack is None:
        return None
    whose = f"{pack.role} pack" + (f" for task {pack.task_id}" if pack.task_id else "")
    body = (
        f'<p><a href="/runs/{esc(part(run.run_id))}">← run {esc(run.run_id)}</a></p><h1>{esc(whose)}</h1>'
        f"<p>{esc(pack.tokens)} of {esc(pack.budget)} tokens, hash <code>{esc(pack.hash)}</code>, "
        f"event #{esc(pack.seq)} at {esc(pack.ts)}</p>{sections_html(pack.sections, pack.budget)}"
        f"<h2>What the model received</h2><pre id=pack-text tabindex=0>{esc(pack.text)}</pre>"
    )
    return page(whose, body, active="/")
