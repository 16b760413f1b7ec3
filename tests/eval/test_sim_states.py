"""The SIMULATED model's persistent failure states and its judging roles, over the simulated server's real HTTP:
a stuck model repeats its call until a steer it reads breaks the repeat; a file it misremembers makes every
search/replace on it miss while a whole-file rewrite lands; a rewrite comes from what it was shown; the planner
guesses its check, the reviewer and the explorer err at their rates; both arms draw the same belief."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import httpx
import pytest

from slmcode.eval.runner import Job, run_job
from slmcode.eval.sim.mind import Mind
from slmcode.eval.sim.profile import Profile
from slmcode.eval.sim.server import SimServer
from slmcode.eval.suite import load_suite
from slmcode.nodes.prompts import LOOP_STEER, REVIEW, SCOPE, SYSTEM
from slmcode.tools.prompts import EDIT_OFFER_WHOLE, REWRITE_TEXT_CUT

TASKS = {t.id: t for t in load_suite()}
TASK = TASKS["js-sum-range"]
SOURCE = (TASK.repo / "math.js").read_text()
SOLVED = (TASK.solution / "math.js").read_text()
BASE = Profile(name="states", model="sim-qwen2.5-coder:7b", window_tokens=0)
TOOLS = [{"type": "function", "function": {"name": n}} for n in ("ws_read", "ws_search", "ws_edit", "ws_write")]


def numbered(text: str) -> str:
    return "\n".join(f"{n}\t{line}" for n, line in enumerate(text.splitlines(), start=1))


def conversation(*steps: tuple[str, dict[str, Any], str]) -> list[dict[str, Any]]:
    """The worker's conversation: its system prompt, the task, then each (tool, args, result) it made."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM["worker"]},
        {"role": "user", "content": TASK.prompt},
    ]
    for i, (name, args, result) in enumerate(steps):
        call = {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        messages += [
            {"role": "assistant", "content": "", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": f"c{i}", "content": result},
        ]
    return messages


def ask(sim: SimServer, messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"model": sim.profile.model, "messages": messages, "tools": TOOLS, **extra}
    reply = httpx.post(f"{sim.url}/chat/completions", json=body, timeout=30).json()
    return reply["choices"][0]["message"]


def call_of(message: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    function = message["tool_calls"][0]["function"]
    return function["name"], json.loads(function["arguments"])


READ = ("ws_read", {"path": "math.js"}, numbered(SOURCE))
SEARCH = {"pattern": "sumRange"}


def test_a_stuck_model_repeats_its_call_until_a_steer_it_reads_breaks_it() -> None:
    stuck = replace(BASE, rates={"repeat_after_error": 1.0}, mind=Mind(stuck_stay=1.0, stuck_break_on_steer=1.0))
    failed = ("ws_search", SEARCH, "Error: the search timed out")
    found = ("ws_search", SEARCH, "math.js:1: function sumRange(a, b) {")
    with SimServer(TASK, stuck, seed=0) as sim:
        assert call_of(ask(sim, conversation(failed))) == ("ws_search", SEARCH)
        # The repeat succeeded, and it repeats it anyway, turn after turn: it is stuck, not retrying an error.
        assert call_of(ask(sim, conversation(failed, found))) == ("ws_search", SEARCH)
        assert call_of(ask(sim, conversation(failed, found, found))) == ("ws_search", SEARCH)
        # A repeat notice in any wording it can read breaks the state: it goes on to read the file it found.
        notice = found[2] + "\nYou have made this same call several times now; do something different."
        assert call_of(ask(sim, conversation(failed, found, found, ("ws_search", SEARCH, notice))))[0] == "ws_read"
    with SimServer(TASK, stuck, seed=0) as sim:  # the harness's own loop-guard steer reads the same way
        ask(sim, conversation(failed))
        steer = found[2] + "\n" + LOOP_STEER.format(times=3, learned="math.js:1")
        assert call_of(ask(sim, conversation(failed, ("ws_search", SEARCH, steer))))[0] == "ws_read"
    free = replace(stuck, mind=Mind(stuck_stay=0.0))
    with SimServer(TASK, free, seed=0) as sim:  # a model that does not stay stuck goes on after one repeat
        ask(sim, conversation(failed))
        assert call_of(ask(sim, conversation(failed, found)))[0] == "ws_read"


def test_a_steer_it_ignores_keeps_it_stuck() -> None:
    deaf = replace(BASE, rates={"repeat_after_error": 1.0}, mind=Mind(stuck_stay=1.0, stuck_break_on_steer=0.0))
    failed = ("ws_search", SEARCH, "Error: the search timed out")
    steer = "math.js:1\n" + LOOP_STEER.format(times=3, learned="math.js:1")
    with SimServer(TASK, deaf, seed=0) as sim:
        ask(sim, conversation(failed))
        assert call_of(ask(sim, conversation(failed, ("ws_search", SEARCH, steer)))) == ("ws_search", SEARCH)


MISREMEMBERS = replace(BASE, mind=Mind(recall_error_per_file=1.0))


def test_a_misremembered_file_makes_every_old_str_on_it_miss_while_its_rewrite_is_right() -> None:
    missed = "Error: old_str was not found in math.js. Copy the text exactly as ws_read shows it and try again."
    with SimServer(TASK, MISREMEMBERS, seed=0) as sim:
        steps: list[tuple[str, dict[str, Any], str]] = [READ]
        for _ in range(3):  # again and again, the same wrong recollection
            name, args = call_of(ask(sim, conversation(*steps)))
            assert name == "ws_edit" and args["old_str"] not in SOURCE
            steps.append((name, args, missed))
        offer = EDIT_OFFER_WHOLE.format(path="math.js", misses=3, text="") + SOURCE.rstrip("\n")
        steps[-1] = (steps[-1][0], steps[-1][1], offer)
        name, args = call_of(ask(sim, conversation(*steps)))
    assert (name, args["content"]) == ("ws_write", SOLVED)
    with SimServer(TASK, BASE, seed=0) as sim:  # remembered right, its old_str is the file's text
        assert call_of(ask(sim, conversation(READ)))[1]["old_str"] in SOURCE


def test_a_rewrite_is_written_from_what_it_was_shown_not_from_the_reference() -> None:
    # The file as the conversation showed it carries a line the task's files do not: its rewrite keeps it.
    shown = SOURCE.replace("function square", "// kept by the user\nfunction square")
    missed = EDIT_OFFER_WHOLE.format(path="math.js", misses=2, text="") + shown.rstrip("\n")
    edit = {"path": "math.js", "old_str": "x", "new_str": "y"}
    with SimServer(TASK, BASE, seed=0) as sim:
        name, args = call_of(
            ask(sim, conversation(("ws_read", {"path": "math.js"}, numbered(shown)), ("ws_edit", edit, missed)))
        )
        assert name == "ws_write"
        assert "// kept by the user" in args["content"] and "i <= b" in args["content"]
        # Offered only the file's first lines, it reads the rest before it rewrites (no region left out).
        lines = shown.splitlines()
        cut = "\n".join(lines[:3]) + "\n" + REWRITE_TEXT_CUT.format(next=4, total=len(lines))
        offer = EDIT_OFFER_WHOLE.format(path="math.js", misses=2, text="") + cut
        name, args = call_of(ask(sim, conversation(READ, ("ws_edit", edit, offer))))
        assert (name, args["offset"]) == ("ws_read", 4)


def structured(sim: SimServer, title: str, system: str, prompt: str) -> dict[str, Any]:
    schema = {"title": title, "type": "object", "properties": {}}
    messages = [{"role": "system", "content": system}, {"role": "user", "content": prompt}]
    body = {
        "model": sim.profile.model,
        "messages": messages,
        "response_format": {"type": "json_schema", "json_schema": {"name": title, "schema": schema}},
    }
    reply = httpx.post(f"{sim.url}/chat/completions", json=body, timeout=30).json()
    return json.loads(reply["choices"][0]["message"]["content"])


def test_the_planner_guesses_its_check_from_what_it_was_shown() -> None:
    rust = TASKS["rust-clamp"] if "rust-clamp" in TASKS else next(t for t in TASKS.values() if t.language == "rust")
    with SimServer(rust, BASE, seed=0) as sim:
        told = structured(
            sim, "Scope", SYSTEM["planner"], SCOPE.format(requirements="- fix it", test_command="make check")
        )
        shown = structured(sim, "Scope", SYSTEM["planner"], "Requirements:\n- fix it\nFiles: Cargo.toml, src/lib.rs")
        blind = structured(sim, "Scope", SYSTEM["planner"], "Requirements:\n- fix it")
    assert told["criteria"][0]["verify"] == "make check"  # the command the request named
    # Not named: the usual command of the project it saw, not the grader's own (cargo test --offline -q).
    assert shown["criteria"][0]["verify"] == "cargo test" != rust.test_command
    assert blind["criteria"][0]["verify"] is None


def review_of(profile: Profile, solved: bool, checks: str = "PASSED the tests pass") -> dict[str, Any]:
    after = "  for (let i = a; i <= b; i++) total += i;" if solved else "  for (let i = a + 1; i < b; i++) total += i;"
    diff = f"--- a/math.js\n+++ b/math.js\n@@ -1,5 +1,5 @@\n-  for (let i = a; i < b; i++) total += i;\n+{after}\n"
    prompt = REVIEW.format(title=TASK.title, description=TASK.prompt, verdicts=checks, evidence=diff)
    with SimServer(TASK, profile, seed=0) as sim:
        return structured(sim, "Review", SYSTEM["reviewer"], prompt)


def test_the_reviewer_judges_the_work_and_errs_at_its_profile_rates() -> None:
    # No check failed either way: what it approves is the work the diff shows, not the absence of FAILED.
    assert review_of(BASE, solved=True)["approve"] is True
    assert review_of(BASE, solved=False)["approve"] is False
    assert review_of(BASE, solved=True, checks="FAILED the tests pass")["approve"] is False
    lax = replace(BASE, mind=Mind(reviewer_approves_wrong=1.0))
    assert review_of(lax, solved=False)["approve"] is True
    strict = replace(BASE, mind=Mind(reviewer_rejects_right=1.0))
    assert review_of(strict, solved=True)["approve"] is False


def test_the_explorer_names_a_wrong_file_at_its_rate() -> None:
    shown = conversation(READ, ("ws_read", {"path": "test/math.test.js"}, "1\tconst m = require('../math');"))
    shown[0] = {"role": "system", "content": SYSTEM["explorer"]}
    with SimServer(TASK, BASE, seed=0) as sim:
        right = ask(sim, shown)["content"]
    with SimServer(TASK, replace(BASE, mind=Mind(explorer_error=1.0)), seed=0) as sim:
        wrong = ask(sim, shown)["content"]
    assert "in math.js" in right and "in math.js" not in wrong


def test_the_same_seed_gives_the_harness_and_the_plain_loop_the_same_belief() -> None:
    coin = replace(BASE, mind=Mind(skill=0.0))  # right half the time
    edits = {}
    for seed in range(6):
        for agent in ("harness", "baseline"):
            with SimServer(TASK, coin, seed=seed, agent=agent) as sim:
                edits[seed, agent] = (sim.belief, call_of(ask(sim, conversation(READ)))[1].get("new_str"))
    assert all(edits[s, "harness"] == edits[s, "baseline"] for s in range(6))
    assert len({edits[s, "harness"][0] == "right" for s in range(6)}) == 2  # and the seed does decide it


@pytest.mark.slow
@pytest.mark.parametrize(("edit_format", "solves"), [("auto", True), ("replace", False)])
def test_through_the_harness_a_misremembered_file_is_solved_only_by_a_rewrite(
    edit_format: str, solves: bool, on_path: None
) -> None:
    with SimServer(TASK, MISREMEMBERS, seed=0) as sim:
        settings = {"base_url": sim.url, "model": BASE.model, "request_retries": 0, "edit_format": edit_format}
        result = run_job(Job(TASK, "harness", settings), timeout=600)
    assert result.solved is solves
    edits = [p for p in sim.log if p.action == "ws_edit"]
    assert edits and all("recall_error" in p.errors for p in edits)
