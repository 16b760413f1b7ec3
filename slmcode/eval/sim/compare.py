"""The SIMULATED comparison's runs: for each profile, the harness, the plain loop (--compare) and the harness
with one lever switched off (or, for attempts, on) at a time (--ablate), each on the same (task, seed) pairs,
every attempt against its own simulated server. An attempt is the ordinary eval attempt (eval/runner.run_job: a
fresh repository, its own process, graded by the hidden tests in the sandbox); only the model behind base_url is
simulated."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from slmcode.errors import SlmcodeError
from slmcode.eval.attempt import Attempt
from slmcode.eval.runner import Job, run_job
from slmcode.eval.sim.cost import attempt_cost
from slmcode.eval.sim.fallback import ESCALATED, escalated, fallback_server, fallback_settings
from slmcode.eval.sim.profile import Profile
from slmcode.eval.sim.server import SimServer
from slmcode.eval.suite import EvalTask

# The harness's levers an ablation switches off, one at a time (settings.ablate says what each means).
OFF_LEVERS = ("packs", "repo_map", "tool_repair", "compaction", "verify", "loop_guard", "edit_format", "stall", "focus")
# Levers off by default that an ablation switches on instead, with the settings that do it: attempts is best-of-N
# with the verifier (nodes/attempts.py), measured as 2 attempts against the default 1.
ON_LEVERS: dict[str, dict[str, Any]] = {"attempts": {"attempts": 2}}
LEVERS = (*OFF_LEVERS, *ON_LEVERS)
# The peer protocols a user would pick instead of the harness (--peer), each its own agent: the row's name says
# it is like the tool, not the tool.
PEERS = {"mini-swe": "mini-swe-like", "aider": "aider-like", "aider-diff": "aider-like diff"}


@dataclass(frozen=True)
class Cell:
    """One row of the table: an agent, with the levers switched off (harness only), or switched on."""

    agent: str  # harness | baseline | a peer (PEERS)
    off: tuple[str, ...] = ()
    on: tuple[str, ...] = ()
    fallback: str = ""  # a fallback profile on a second simulated server (eval/sim/fallback.py)

    @property
    def name(self) -> str:
        if self.agent == "baseline":
            return "plain loop"
        if self.agent in PEERS:
            return PEERS[self.agent]
        switched_on = "".join(f" + {lever} {ON_LEVERS[lever][lever]}" for lever in self.on)
        fallback = f" + fallback {self.fallback}" if self.fallback else ""
        return "harness" + "".join(f" - {lever}" for lever in self.off) + switched_on + fallback


@dataclass
class Outcome:
    profile: str
    cell: Cell
    task: str
    seed: int
    attempt: Attempt
    errors: Counter[str] = field(default_factory=Counter)  # errors it made; window_cut: requests the window cut
    # What its servers read and wrote (sim/cost.py): requests, prompt, read and answer tokens, CPU seconds.
    cost: dict[str, Any] = field(default_factory=dict)


def parse_ablate(value: str | None) -> list[str]:
    """--ablate all | LEVER[,LEVER...] -> the levers, each switched off in its own row."""
    if not value:
        return []
    if value.strip() == "all":
        return list(LEVERS)
    levers = [v.strip() for v in value.split(",") if v.strip()]
    unknown = [v for v in levers if v not in LEVERS]
    if unknown:
        raise SlmcodeError(f"--ablate: unknown lever '{unknown[0]}' (levers: all, {', '.join(LEVERS)})")
    return levers


def parse_peers(value: str | None) -> list[str]:
    """--peer NAME[,NAME...] -> the peer agents, each a row of its own."""
    peers = [v.strip() for v in (value or "").split(",") if v.strip()]
    unknown = [v for v in peers if v not in PEERS]
    if unknown:
        raise SlmcodeError(f"--peer: unknown peer '{unknown[0]}' (peers: {', '.join(PEERS)})")
    return list(dict.fromkeys(peers))


def cells(compare: bool, ablate: Sequence[str], fallback: str = "", peers: Sequence[str] = ()) -> list[Cell]:
    levers = [Cell("harness", on=(lever,)) if lever in ON_LEVERS else Cell("harness", (lever,)) for lever in ablate]
    escalating = [Cell("harness", fallback=fallback)] if fallback else []
    others = [Cell(peer) for peer in peers]
    return [Cell("harness"), *([Cell("baseline")] if compare else []), *others, *levers, *escalating]


def run_one(task: EvalTask, profile: Profile, seed: int, cell: Cell, timeout: float) -> Outcome:
    """One attempt of one cell on one (task, seed), against a simulated server of its own."""
    with (
        SimServer(task, profile, seed=seed, agent=cell.agent) as sim,
        fallback_server(task, cell.fallback, seed, cell.agent) as stronger,
    ):
        settings: dict[str, Any] = {"base_url": sim.url, "model": profile.model, "request_retries": 0}
        if stronger is not None:
            settings |= fallback_settings(stronger)
        if cell.off:
            settings["ablate"] = list(cell.off)
        for lever in cell.on:
            settings.update(ON_LEVERS[lever])
        attempt = run_job(Job(task, cell.agent, settings), timeout)
        made = Counter(error.split(":")[0] for played in sim.log for error in played.errors)
        made["window_cut"] = sum(1 for played in sim.log if played.dropped)  # requests the server's window cut
        if stronger is not None:
            made[ESCALATED] = escalated(stronger)
        cost = attempt_cost([(s.meter.cost, s.profile.mind) for s in (sim, stronger) if s is not None])
    return Outcome(profile.name, cell, task.id, seed, attempt, made, cost)


def run_grid(
    profiles: Sequence[Profile],
    tasks: Sequence[EvalTask],
    seeds: int,
    grid: Sequence[Cell],
    *,
    jobs: int,
    timeout: float,
    on_result: Callable[[Outcome], None],
) -> list[Outcome]:
    """Every (profile, cell, task, seed), `jobs` at a time; results in that order."""
    work = [(p, c, t, s) for p in profiles for c in grid for t in tasks for s in range(seeds)]

    def one(item: tuple[Profile, Cell, EvalTask, int]) -> Outcome:
        profile, cell, task, seed = item
        outcome = run_one(task, profile, seed, cell, timeout)
        on_result(outcome)
        return outcome

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, work))
