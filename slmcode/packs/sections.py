"""Sections of a pack and how the role's budget is shared among them.

The system prompt and tool contract are taken whole (cut only if they alone overflow); every other section
gets an explicit share of what remains; the code excerpts get whatever the others leave. Text that does not
fit is cut at a line boundary with a visible marker, never silently.
"""

from __future__ import annotations

from dataclasses import dataclass

from slmcode.budget.fitting import largest_fitting
from slmcode.budget.tokens import TokenCounter
from slmcode.packs import prompts

# Render order: the first five form the stable prefix (system message), the rest the volatile part.
STABLE_SECTIONS: tuple[str, ...] = ("system", "tools", "instructions", "skills", "map")
VOLATILE_SECTIONS: tuple[str, ...] = ("scoped_instructions", "skill_bodies", "memory", "task_map", "excerpts", "task")
SECTION_ORDER: tuple[str, ...] = STABLE_SECTIONS + VOLATILE_SECTIONS

# Shares of the budget left after the system prompt and tool contract. Excerpts take the rest.
SECTION_SHARES: dict[str, float] = {
    "instructions": 0.15,
    "skills": 0.06,
    "map": 0.15,
    "scoped_instructions": 0.06,
    "skill_bodies": 0.12,
    "memory": 0.08,
    "task": 0.20,
}
SECTION_SEPARATOR = "\n\n"


@dataclass(frozen=True)
class Section:
    """One rendered section: its name, its text with heading, and the tokens that text takes."""

    name: str
    text: str
    tokens: int


@dataclass(frozen=True)
class Fitted:
    text: str
    tokens: int
    cut_lines: int


def with_heading(name: str, body: str) -> str:
    heading = prompts.HEADINGS[name]
    return f"{heading}\n{body}" if heading and body else body


def fit_lines(text: str, budget: int, counter: TokenCounter) -> Fitted:
    """The longest leading run of lines that fits with a cut marker; the whole text when it fits."""
    tokens = counter.count(text)
    if tokens <= budget:
        return Fitted(text, tokens, 0)
    lines = text.splitlines()

    def candidate(keep: int) -> str:
        marker = prompts.CUT_MARKER.format(count=len(lines) - keep)
        return "\n".join([*lines[:keep], marker])

    low, high = 0, len(lines) - 1  # keep `low` lines is known to fit (or nothing fits at all)
    if counter.count(candidate(0)) > budget:
        return Fitted("", 0, len(lines))
    low = largest_fitting(low, high, lambda keep: counter.count(candidate(keep)) <= budget)
    text = candidate(low)
    return Fitted(text, counter.count(text), len(lines) - low)


def section(name: str, body: str, budget: int, counter: TokenCounter) -> Section:
    """A section with its heading, cut to `budget` tokens (heading included)."""
    if not body.strip():
        return Section(name, "", 0)
    heading = prompts.HEADINGS[name]
    heading_tokens = counter.count(heading + "\n") if heading else 0
    fitted = fit_lines(body.strip("\n"), max(0, budget - heading_tokens), counter)
    if not fitted.text:
        return Section(name, "", 0)
    text = with_heading(name, fitted.text)
    return Section(name, text, counter.count(text))


def share_caps(available: int, fixed_tokens: int) -> dict[str, int]:
    """Token caps for the shared sections, from what the fixed sections leave."""
    rest = max(0, available - fixed_tokens)
    return {name: int(rest * share) for name, share in SECTION_SHARES.items()}


def separator_tokens(count: int, counter: TokenCounter) -> int:
    """What the blank lines between `count` sections cost (tokens are not quite additive across joins)."""
    return max(0, count - 1) * (counter.count(SECTION_SEPARATOR) + 1)
