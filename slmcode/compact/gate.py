"""The acceptance gate for document compaction (CONTEXT.md and the like): a model's shortened document
replaces the original only if it passes four checks. A refused output leaves the original in place.

Refused: under a tenth of the input; a `## ` heading of the input missing; fewer than 60% of the input's
path tokens kept; an opening preamble ("Sure! Here is ...").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MIN_SIZE_RATIO = 0.1
MIN_PATH_RECALL = 0.6

_EXTENSIONS = (
    "py|pyi|md|rst|txt|toml|yaml|yml|json|ini|cfg|js|jsx|ts|tsx|go|rs|java|kt|c|h|cc|cpp|hpp|cs|rb|php|sh|sql|lock"
)
_PATH = re.compile(rf"(?<![\w/.-])(?:[\w.-]+/)+[\w.-]*[\w]|(?<![\w/.-])[\w-]+\.(?:{_EXTENSIONS})\b")
_PREAMBLE = re.compile(
    r"^\W*(sure|certainly|of course|okay|ok|absolutely|great|here is|here's|here are|below is|i have|i've|"
    r"as requested|happy to)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class GateResult:
    accepted: bool
    reason: str


def path_tokens(text: str) -> set[str]:
    """Things that look like file paths: a/b/c, src/x.py, README.md."""
    return set(_PATH.findall(text))


def headings(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.startswith("## ")]


def opens_with_preamble(text: str) -> bool:
    first = next((line for line in text.splitlines() if line.strip()), "")
    return bool(_PREAMBLE.match(first.strip()))


def accept_compaction(original: str, candidate: str) -> GateResult:
    """Whether `candidate` may replace `original`; the reason names the first rule it breaks."""
    if len(candidate.strip()) < len(original.strip()) * MIN_SIZE_RATIO:
        return GateResult(False, f"output is under a tenth of the input ({len(candidate)} of {len(original)} chars)")
    kept_headings = set(headings(candidate))
    lost = [h for h in headings(original) if h not in kept_headings]
    if lost:
        return GateResult(False, f"output drops the heading {lost[0]!r}")
    paths = path_tokens(original)
    if paths:
        kept = sum(p in candidate for p in paths)
        if kept / len(paths) < MIN_PATH_RECALL:
            return GateResult(False, f"output keeps {kept} of {len(paths)} paths (under 60%)")
    if opens_with_preamble(candidate):
        return GateResult(False, "output opens with a preamble instead of the document")
    return GateResult(True, "accepted")


def gated(original: str, candidate: str) -> str:
    """The candidate when the gate accepts it, else the original, unchanged."""
    return candidate if accept_compaction(original, candidate).accepted else original
