"""The simulated model's persistent failure states, held across its requests for one run (the errors of
errors.py are drawn afresh at every chance; these, once entered, last):
- stuck: once it repeats a call, it keeps repeating it; each turn it stays with the profile's `stuck_stay`,
  unless the result it reads now steers it off the repeat (a loop guard's or a repeat notice's words, read by
  their meaning), which breaks the state with `stuck_break_on_steer` instead;
- recall: per file, drawn once the first time it edits the file, a wrong memory of the file's exact text
  (`recall_error_per_file`): every old_str it quotes from that file carries a line it recalled wrongly, so every
  search/replace on it misses, while a whole-file rewrite (written from what it was shown, memory.py) can land.
Every draw is a decision of the run's common stream (draws.py), so every arm meets the same luck."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

from slmcode.eval.sim.draws import Draws
from slmcode.eval.sim.mind import Mind
from slmcode.eval.sim.shown import Step

# A steer off a repeat, by what it says rather than one wording: the call (command, step) was already made,
# the same again, or repeated; or it is told to do something different.
STEER = re.compile(
    r"\b(already|again|repeat\w*|same|identical)\b[^\n]{0,80}?\b(call|calls|command|commands|action|step|request)\b"
    r"|\b(call|command|action|step)\b[^\n]{0,60}?\b(\d+|several|many) times\b"
    r"|\bdo something (else|different)\b|\btry a different (tool|call|approach)\b",
    re.IGNORECASE,
)


def steers_off(text: str) -> bool:
    """The text tells it that it is repeating itself."""
    return bool(STEER.search(text))


def _call_key(name: str, args: dict[str, Any]) -> tuple[str, str]:
    return name, repr(sorted(args.items(), key=lambda kv: kv[0]))


@dataclass
class States:
    mind: Mind
    draws: Draws
    stuck_on: tuple[str, str] | None = None  # the call it repeats, while stuck
    recall: dict[str, bool] = field(default_factory=dict)  # path -> it misremembers the file
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def enter_stuck(self, last: Step) -> None:
        with self._lock:
            self.stuck_on = _call_key(last.name, last.args)

    def stays_stuck(self, last: Step | None, drawn: list[str]) -> bool:
        """Stuck on the call this conversation ended with: whether it repeats it once more (False: it is free)."""
        if self.stuck_on is None or last is None or _call_key(last.name, last.args) != self.stuck_on:
            return False
        steered = last.result is not None and steers_off(last.result)
        key, value, _ = self.draws.uniform("stuck_break" if steered else "stuck_stay")
        drawn.append(key)
        stays = value >= self.mind.stuck_break_on_steer if steered else value < self.mind.stuck_stay
        if not stays:
            with self._lock:
                self.stuck_on = None
        return stays

    def misremembers(self, path: str, drawn: list[str]) -> bool:
        """Whether its memory of `path`'s exact text is wrong: drawn once per file, then kept."""
        with self._lock:
            if path in self.recall:
                return self.recall[path]
        key, value, _ = self.draws.uniform(f"recall_error:{path}")
        drawn.append(key)
        with self._lock:
            return self.recall.setdefault(path, value < self.mind.recall_error_per_file)
