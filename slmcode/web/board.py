"""What the run's timeline says about its state: the current phase, the task board, the tokens spent.

Read from the trace's events alone (the same ones `slmcode trace` replays), so a live run, a finished one
and a killed one are shown the same way, without opening its checkpoint.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from slmcode.store.trace_rows import Event


@dataclass
class TaskCard:
    task_id: str
    title: str = ""
    status: str = ""
    requests: int = 0  # model requests made for the task, every role's (the terminal board counts the same)
    files_changed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def current_phase(events: list[Event]) -> str:
    phases = [str(e.data.get("phase")) for e in events if e.kind == "phase" and e.data.get("phase")]
    return phases[-1] if phases else ""


def phase_path(events: list[Event]) -> list[str]:
    """The phases the run went through, each once, in the order it first entered them (the pipeline is
    configurable, so the run's own events are the map, not a fixed list)."""
    seen: dict[str, None] = {}
    for event in events:
        if event.kind == "phase" and event.data.get("phase"):
            seen.setdefault(str(event.data["phase"]), None)
    return list(seen)


def task_board(events: list[Event]) -> list[TaskCard]:
    """Every task the run announced, in announcement order, with its latest status."""
    cards: dict[str, TaskCard] = {}
    asked: dict[str, int] = {}
    for event in events:
        if event.kind == "model_call" and event.task_id:
            asked[event.task_id] = asked.get(event.task_id, 0) + 1
        if event.kind != "task" or not event.task_id:
            continue
        card = cards.setdefault(event.task_id, TaskCard(event.task_id))
        d = event.data
        card.title = str(d.get("title") or card.title)
        card.status = str(d.get("status") or card.status)
        for path in d.get("files_changed") or []:
            if str(path) not in card.files_changed:
                card.files_changed.append(str(path))
        card.notes += [str(n) for n in d.get("notes") or []]
    for card in cards.values():
        card.requests = asked.get(card.task_id, 0)
    return list(cards.values())


def tokens_spent(events: list[Event]) -> int:
    """Prompt plus completion tokens over every model call the run recorded."""
    return sum(
        int(e.data.get("prompt_tokens") or 0) + int(e.data.get("completion_tokens") or 0)
        for e in events
        if e.kind == "model_call"
    )
