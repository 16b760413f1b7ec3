"""The SIMULATED small model's server: an OpenAI-compatible chat server on loopback (the scripted server's HTTP
machinery) that plays one model on one eval task, for one seed. Each request is cut to the profile's window as
the server would cut it, read as the model would read it, answered by role, and given its errors from the
run's common random numbers (draws.py), keyed by (task, seed, decision) and never by agent or role: the same
seed gives the same run, and every arm the same draw at the same decision.

`log` keeps one line per answer (role, turn, what it did, which errors it made, messages the window dropped), so
a test or the table can see what the simulated model did without reading the trace."""

from __future__ import annotations

import hashlib
import random
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from slmcode.eval.scripted import FakeLLM, Reply
from slmcode.eval.sim.aider import aider_answer, is_aider, is_reflection
from slmcode.eval.sim.bash import bash_reply, is_bash_protocol, read_bash
from slmcode.eval.sim.cost import Meter
from slmcode.eval.sim.draws import Draws
from slmcode.eval.sim.errors import Dice, answer, mistake
from slmcode.eval.sim.judges import explorer_answer
from slmcode.eval.sim.knowledge import Knowledge
from slmcode.eval.sim.mutants import wrong_edits
from slmcode.eval.sim.policy import next_action
from slmcode.eval.sim.profile import Profile
from slmcode.eval.sim.roles import schema_of, structured_text, structured_value, tool_role
from slmcode.eval.sim.shown import Request, content_text, read_request
from slmcode.eval.sim.states import States
from slmcode.eval.sim.window import fit_window, request_tokens
from slmcode.eval.suite import EvalTask

SIMULATED = "SIMULATED"
SUMMARY = "SIMULATED summary: the conversation so far worked on the task; keep the last results."
TEST_NAME = re.compile(r"\b[Tt]est\w*")


@dataclass(frozen=True)
class Belief:
    """An attempt's idea of the fix: what it means each file to hold, its kind, and the hidden tests' output under
    it when wrong (the tests it fails)."""

    knowledge: Knowledge
    kind: str  # right | stub | a wrong edit's kind (mutants.py)
    fails: str = ""


@dataclass(frozen=True)
class Played:
    role: str
    turn: int
    action: str  # a tool's name, "answer" (no call) or "json"
    args: dict[str, Any] = field(default_factory=dict)
    errors: tuple[str, ...] = ()
    dropped: int = 0
    drawn: tuple[str, ...] = ()  # the decisions this answer drew (keys of SimServer.draws.log)


class SimServer(FakeLLM):
    """Start with .start() (or as a context manager); .url is the base_url; .log what it played."""

    def __init__(self, task: EvalTask, profile: Profile, seed: int = 0, agent: str = "harness") -> None:
        super().__init__(models=[profile.model])
        self.task, self.profile, self.seed, self.agent = task, profile, seed, agent
        self.draws = Draws(task.id, seed)
        self.states = States(profile.mind, self.draws)  # stuck, misremembered files (states.py)
        self.reference = Knowledge(task)
        # One belief per attempt, by the seed its requests send (best-of-N's attempt k > 1; nodes/attempts.py).
        self.first = self._believe()
        self.beliefs: dict[int, Belief] = {1: self.first}
        self._read_failures: set[str] = set()
        self.log: list[Played] = []
        self.turns: dict[str, int] = {}
        self._sim_lock = threading.Lock()
        self.meter = Meter()  # what it read past its cache and wrote (cost.py)
        self.default = self.served
        if profile.ollama:
            self.ollama_num_ctx = {profile.model: None}

    @property
    def belief(self) -> str:
        """The first attempt's belief: right, stub, or the kind of wrong edit (mutants.py)."""
        return self.beliefs[1].kind

    def _believe(self, attempt: int = 1) -> Belief:
        """An attempt's one idea of the fix, held by every role: the reference with logistic(skill - difficulty),
        else one of the task's graded wrong edits (the stub unchanged when none was kept)."""
        _, value, rng = self.draws.uniform("belief" if attempt == 1 else f"belief@{attempt}")
        if value < self.profile.mind.p_right(*self.reference.size()):
            return Belief(self.reference, "right")
        wrong = wrong_edits(self.task, self.reference)
        if not wrong:
            return Belief(Knowledge(self.task, ()), "stub")
        chosen = rng.choice(wrong)
        return Belief(Knowledge(self.task, tuple(sorted(chosen.files.items()))), chosen.kind, chosen.fails)

    def attempt_of(self, request: Request) -> int:
        """The attempt a request belongs to: the seed best-of-N's attempt k > 1 sends, else 1. Attempt k's first
        request keeps the first attempt's belief (as it was drawn) with the profile's redraw_correlation, else
        draws its own; each attempt's draws are keyed by its number, so the order they arrive in changes nothing."""
        attempt = int(request.get("seed") or 1)
        with self._sim_lock:
            if attempt in self.beliefs:
                return attempt
        _, value, _ = self.draws.uniform(f"redraw@{attempt}")
        fresh = self.first if value < self.profile.mind.redraw_correlation else self._believe(attempt)
        with self._sim_lock:
            self.beliefs.setdefault(attempt, fresh)
        return attempt

    def _read_failure(self, request: Request, attempt: int) -> None:
        """The last message it reads is test output naming a test its wrong belief fails: with the profile's
        chance (one draw per distinct output read) its idea turns into the right edit."""
        belief = self.beliefs[attempt]
        messages = request.get("messages") or []
        if belief.kind == "right" or not messages or messages[-1].get("role") not in ("user", "tool"):
            return
        if is_reflection(request):  # told its blocks did not apply: no test output to learn from
            return
        text = content_text(messages[-1].get("content"))
        names = set(TEST_NAME.findall(belief.fails)) or {p.name for p in self.task.hidden.rglob("*") if p.is_file()}
        if not any(name in text for name in names) or "fail" not in text.lower():
            return
        digest = hashlib.sha256(f"{attempt}|{text}".encode()).hexdigest()
        with self._sim_lock:
            if digest in self._read_failures:
                return
            self._read_failures.add(digest)
        _, value, _ = self.draws.uniform("flip")
        if value < self.profile.mind.p_flip(*self.reference.size()):
            with self._sim_lock:
                self.beliefs[attempt] = Belief(self.reference, "right")

    def aider(self, request: Request, dropped: int) -> Reply:
        """The aider-like peer's answer, in the edit format it was asked for (sim/aider.py)."""
        text, made = aider_answer(self.beliefs[1].knowledge, request, self.profile, self.draws)
        self._note(Played("aider", self._turn("aider"), "answer", {}, made, dropped))
        return Reply(content=f"{SIMULATED}: the change, file by file.\n\n{text}")

    def _turn(self, role: str) -> int:
        with self._sim_lock:
            self.turns[role] = self.turns.get(role, 0) + 1
            return self.turns[role]

    def dice(self, role: str, turn: int, tokens: int, made: list[str]) -> Dice:
        # The fallback generator is only for a caller with no stream; every roll here draws from self.draws.
        return Dice(random.Random(0), self.profile, tokens, made, self.draws, states=self.states)

    def served(self, request: Request) -> Reply:
        reply = self.play(request)
        self.meter.add(request, fit_window(request, self.profile.window_tokens)[0], reply)
        return reply

    def play(self, request: Request) -> Reply:
        seen, dropped = fit_window(request, self.profile.window_tokens)
        attempt = self.attempt_of(request)
        self._read_failure(seen, attempt)
        knowledge = self.beliefs[attempt].knowledge
        shown = read_request(seen)
        tokens = request_tokens(seen)
        schema = schema_of(seen)
        made: list[str] = []
        if schema is not None:
            role = str(schema.get("title") or "json")
            turn = self._turn(role)
            dice = self.dice(role, turn, tokens, made)
            value = structured_value(schema, knowledge, shown, seen, self.reference, dice)
            text = structured_text(value, dice)
            self._note(Played(role, turn, "json", {}, tuple(made), dropped, tuple(dice.drawn)))
            return Reply(content=text)
        if is_bash_protocol(shown):  # the mini-swe-agent-like peer: one bash command per reply, no tools
            turn = self._turn("mini-swe")
            dice = self.dice("mini-swe", turn, tokens, made)
            bash = read_bash(seen, shown)
            taken = mistake(next_action(knowledge, bash, "mini-swe"), bash, dice)
            reply = bash_reply(taken, dice)
            played = Played(
                "mini-swe", turn, taken.name or "answer", taken.args, tuple(made), dropped, tuple(dice.drawn)
            )
            self._note(played)
            return reply
        if not request.get("tools") and is_aider(seen):
            return self.aider(seen, dropped)
        if not request.get("tools"):  # the compactor and other plain-text asks
            self._note(Played("text", self._turn("text"), "answer", {}, (), dropped))
            return Reply(content=SUMMARY)
        role = tool_role(shown)
        turn = self._turn(role)
        dice = self.dice(role, turn, tokens, made)
        if role == "explorer":  # asked a question, it changes nothing
            text = explorer_answer(self.task.title, knowledge, shown, dice)
            self._note(Played(role, turn, "answer", {}, tuple(made), dropped, tuple(dice.drawn)))
            return Reply(content=f"{SIMULATED}: {text}")
        intended = next_action(knowledge, shown, role)
        taken = mistake(intended, shown, dice)
        reply = answer(taken, dice)
        self._note(Played(role, turn, taken.name or "answer", taken.args, tuple(made), dropped, tuple(dice.drawn)))
        return reply

    def _note(self, played: Played) -> None:
        with self._sim_lock:
            self.log.append(played)
