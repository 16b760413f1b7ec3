"""The simulated model's errors: the step it means (policy.Action) turned into the answer it sends, with each
error of its profile drawn from the request's seeded generator. Each kind is one a small model is known for;
which are caught, and how, is the harness's business, and what the comparison measures."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from slmcode.eval.scripted import Reply
from slmcode.eval.sim.draws import Draws
from slmcode.eval.sim.memory import rewrite_text
from slmcode.eval.sim.policy import Action
from slmcode.eval.sim.profile import Profile
from slmcode.eval.sim.shown import Shown
from slmcode.eval.sim.states import States
from slmcode.tools.registry import EDIT, READ, SHELL, WRITE, WRITE_TOOLS

CLAIM_DONE = "Done: the change is made."
CLAIM_TESTS = "Done: the change is made and all tests pass."


@dataclass
class Dice:
    """One request's draws: `rolls(kind)` is True at the profile's rate for this prompt's size. With `draws`, each
    chance is a decision of the run's common stream (draws.py) and `rng` becomes that decision's own generator,
    so how an error is made is common to the arms too; `drawn` lists the decisions this request took."""

    rng: random.Random
    profile: Profile
    prompt_tokens: int
    made: list[str]
    draws: Draws | None = None
    drawn: list[str] = field(default_factory=list)
    states: States | None = None  # its persistent failure states for the run (states.py)

    def rolls(self, error: str) -> bool:
        if self.draws is None:
            value = self.rng.random()
        else:
            key, value, self.rng = self.draws.uniform(error)
            self.drawn.append(key)
        hit = value < self.profile.rate(error, self.prompt_tokens)
        if hit:
            self.made.append(error)
        return hit


def _indented(text: str) -> str:
    return "".join("  " + line if line.strip() else line for line in text.splitlines(keepends=True))


def _drifted(old_str: str, new_str: str, rng: random.Random | None) -> tuple[str, str]:
    """An edit recalled wrongly: its indentation drifted (old_str and new_str alike, as a block recalled out of its
    nesting is), or (always, with no generator: a file it misremembers) one line of old_str changed."""
    if rng is not None and rng.random() < 0.5:
        return _indented(old_str), _indented(new_str)
    lines = old_str.splitlines(keepends=True)
    at = max(range(len(lines)), key=lambda i: (len(lines[i].strip()), -i))
    lines[at] = lines[at].rstrip("\n").rstrip() + "  # recalled\n" if lines[at].endswith("\n") else lines[at] + " x"
    return "".join(lines), new_str


def _dropped(text: str, keep: str) -> str:
    """The file rewritten from memory, a quarter of its lines outside the change dropped from the end (what
    little-coder's write guard stops)."""
    lines = text.splitlines(keepends=True)
    kept = {line.strip() for line in keep.splitlines() if line.strip()}
    budget, out = max(1, len(lines) // 4), []
    for line in reversed(lines):
        if budget and line.strip() and line.strip() not in kept:
            budget -= 1
            continue
        out.append(line)
    return "".join(reversed(out))


def _wrong_path(path: str) -> str:
    return f"src/{path}" if not path.startswith("src/") else path.removeprefix("src/")


def _as_text(name: str, args: dict[str, Any], rng: random.Random) -> str:
    body = json.dumps({"name": name, "arguments": args})
    return f"<tool_call>\n{body}\n</tool_call>" if rng.random() < 0.5 else f"I will call the tool.\n{body}"


def _broken(args: dict[str, Any], rng: random.Random) -> str:
    text = json.dumps(args)
    # A closing brace missing (cut off), or Python's quotes: both seen from small models.
    return text[:-1] if rng.random() < 0.5 else repr(args)


def mistake(action: Action, shown: Shown, dice: Dice) -> Action:
    """The step it takes instead of `action`, when an error of the step's kind is drawn."""
    last = shown.last()
    states = dice.states
    if states is not None and last is not None and states.stays_stuck(last, dice.drawn):
        return Action(last.name, dict(last.args))
    if last is not None and last.failed and last.result is not None and dice.rolls("repeat_after_error"):
        if states is not None:
            states.enter_stuck(last)
        return Action(last.name, dict(last.args))
    edited = any(s.name in WRITE_TOOLS and not s.failed for s in shown.steps)
    if action.is_call and not edited and not action.is_edit and dice.rolls("stop_without_edit"):
        return Action(text=CLAIM_DONE)
    if action.name == SHELL and dice.rolls("claim_tests_pass"):
        return Action(text=CLAIM_TESTS)
    args = dict(action.args)
    if action.name == EDIT and action.hunk is not None and action.change is not None:
        if dice.rolls("drop_code_rewrite"):
            content = _dropped(rewrite_text(action.change, shown), action.hunk.new_str)
            return Action(WRITE, {"path": action.change.path, "content": content})
        if dice.rolls("old_str_mismatch"):
            args["old_str"], args["new_str"] = _drifted(args["old_str"], args["new_str"], dice.rng)
    misremembers = (
        action.name == EDIT
        and action.change is not None
        and states is not None
        and states.misremembers(action.change.path, dice.drawn)
    )
    if misremembers:  # every old_str it quotes from a file it misremembers misses
        dice.made.append("recall_error")
        args["old_str"], args["new_str"] = _drifted(str(args["old_str"]), str(args["new_str"]), None)
    if (
        action.is_rewrite and action.hunk is not None and action.change is not None and dice.rolls("drop_code_rewrite")
    ):  # the whole file from memory: it drops code at the same rate
        args["content"] = _dropped(str(args["content"]), action.hunk.new_str)
    if "path" in args and action.name in (READ, EDIT) and dice.rolls("wrong_path"):
        args["path"] = _wrong_path(str(args["path"]))
    return Action(action.name, args, action.text)


def answer(action: Action, dice: Dice) -> Reply:
    """The reply on the wire: a structured call, a call written as text, or broken arguments."""
    if not action.is_call:
        return Reply(content=action.text)
    if dice.rolls("text_call"):
        return Reply(content=_as_text(action.name, action.args, dice.rng))
    if dice.rolls("malformed_args"):
        return Reply(tool_calls=[{"name": action.name, "arguments": _broken(action.args, dice.rng)}])
    return Reply(tool_calls=[{"name": action.name, "arguments": action.args}])
