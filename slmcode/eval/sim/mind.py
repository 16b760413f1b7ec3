"""The SIMULATED model's competence, beside its slips (profile.rates): how likely its idea of the fix is right for
a task of a given size, how that idea moves (a failing test it reads, a fresh attempt), how it gets stuck and
what it recalls wrongly, how its reviewer and explorer err, and how fast its CPU server reads and writes tokens
(for wall-time estimates). A profile's YAML gives these under `mind:`; every field unfitted is marked `assumed`
there, and the fit names the published row it was fitted to."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from slmcode.errors import SlmcodeError

PROBABILITIES = (
    "flip_after_failing_test",
    "redraw_correlation",
    "stuck_stay",
    "stuck_break_on_steer",
    "recall_error_per_file",
    "reviewer_approves_wrong",
    "reviewer_rejects_right",
    "explorer_error",
)


@dataclass(frozen=True)
class Mind:
    # An attempt's belief (its idea of the edit) is the right one with probability logistic(skill - difficulty),
    # difficulty = difficulty_base + per_hunk x (hunks - 1) + per_file x (files - 1) + per_changed_line x lines
    # changed, all read off the task's reference solution. Logits; the default never believes wrongly.
    skill: float = 20.0
    difficulty_base: float = 0.0
    per_hunk: float = 0.0
    per_file: float = 0.0
    per_changed_line: float = 0.0
    # After failing test output that names a test its wrong belief fails, the chance it switches to the right edit.
    flip_after_failing_test: float = 0.0
    # Given (logits), that chance is instead logistic(skill + retry_gain - difficulty): a model reads failing
    # output better the stronger it is and the easier the task (the form a fit to aider's pass_1 and pass_2
    # rows transfers across models; a constant chance does not).
    retry_gain: float | None = None
    # A fresh attempt (best-of-N's attempt k > 1) keeps the first attempt's belief with this chance, else draws
    # anew (sim/server.py): how much two samples of one model at a warmer temperature share their idea of a fix.
    redraw_correlation: float = 0.0
    # Once repeating a call, the chance per turn it repeats it again; a steer it reads (a loop guard, a repeat
    # notice) breaks the repeat with the other chance instead (states.py).
    stuck_stay: float = 0.0
    stuck_break_on_steer: float = 1.0
    # Per file it edits, the chance it misremembers the file's exact text: every old_str it quotes from it misses,
    # while a whole-file rewrite copies what it was shown (memory.py), so the edit format matters.
    recall_error_per_file: float = 0.0
    # The reviewer approves wrong work / rejects right work at these rates; the explorer answers wrongly at its.
    reviewer_approves_wrong: float = 0.0
    reviewer_rejects_right: float = 0.0
    explorer_error: float = 0.0
    # Its server on CPU: prompt tokens read and answer tokens written per second (0: not estimated).
    prefill_tokens_per_s: float = 0.0
    decode_tokens_per_s: float = 0.0

    def difficulty(self, hunks: int, files: int, changed_lines: int) -> float:
        return (
            self.difficulty_base
            + self.per_hunk * max(0, hunks - 1)
            + self.per_file * max(0, files - 1)
            + self.per_changed_line * changed_lines
        )

    def p_right(self, hunks: int, files: int, changed_lines: int) -> float:
        """The chance an attempt's belief is the right edit, for a task of this size."""
        return 1.0 / (1.0 + math.exp(-(self.skill - self.difficulty(hunks, files, changed_lines))))

    def p_flip(self, hunks: int, files: int, changed_lines: int) -> float:
        """The chance failing output it reads turns a wrong belief right, for a task of this size."""
        if self.retry_gain is None:
            return self.flip_after_failing_test
        return 1.0 / (1.0 + math.exp(-(self.skill + self.retry_gain - self.difficulty(hunks, files, changed_lines))))

    def seconds(self, prompt_tokens: int, answer_tokens: int) -> float | None:
        """The wall time of one request on its CPU server, or None when the profile gives no rates."""
        if self.prefill_tokens_per_s <= 0 or self.decode_tokens_per_s <= 0:
            return None
        return prompt_tokens / self.prefill_tokens_per_s + answer_tokens / self.decode_tokens_per_s


def load_mind(raw: object, where: str) -> Mind:
    if raw is None:
        return Mind()
    if not isinstance(raw, dict):
        raise SlmcodeError(f"sim profile {where}: `mind` must be a mapping")
    known = {f.name for f in fields(Mind)}
    values: dict[str, float] = {}
    for key, value in raw.items():
        if key not in known:
            raise SlmcodeError(f"sim profile {where}: unknown mind field '{key}' (known: {', '.join(sorted(known))})")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SlmcodeError(f"sim profile {where}: mind field '{key}' must be a number, got {value!r}")
        if key in PROBABILITIES and not 0 <= value <= 1:
            raise SlmcodeError(f"sim profile {where}: mind field '{key}' must be from 0 to 1, got {value!r}")
        if key.endswith("_per_s") and value < 0:
            raise SlmcodeError(f"sim profile {where}: mind field '{key}' must not be negative, got {value!r}")
        values[key] = float(value)
    return Mind(**values)
