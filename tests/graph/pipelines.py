"""The built-in pipeline's phases as a workspace's pipeline block spells them, for the tests that change one
thing in it (a phase's `when`, a slot) and look at the graph it makes."""

from __future__ import annotations

PHASES = (
    "context",
    "clarify",
    "scope_judge",
    "planner",
    "splitter",
    "coordinator",
    "worker",
    "verify",
    "reviewer",
    "corrector",
    "escalate",
    "tester",
    "qa",
    "learn",
)
AUTO = frozenset({"corrector", "escalate"})  # the built-in pipeline runs these only when needed


def pipeline_block(when: dict[str, str] | None = None, slots: str = "") -> str:
    """pipeline.yaml: every built-in phase, `when` overriding a phase's condition, `slots` (YAML list items)."""
    when = when or {}
    lines = ["api_version: blocks/v1", "kind: pipeline", "id: default", "phases:"]
    for name in PHASES:
        condition = when.get(name) or ("auto" if name in AUTO else None)
        lines.append(f"  - {{name: {name}{f', when: {condition}' if condition else ''}}}")
    return "\n".join(lines) + "\n" + (f"slots:\n{slots.strip(chr(10))}\n" if slots else "")
