"""A window too small for a role's fixed prompt (its system prompt and answer contract) is said at start, naming
the server, its window and the smallest that works; a fallback whose server keeps too little is skipped, saying
why. The scripted server poses as Ollama keeping 512 tokens (its num_ctx)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from slmcode.errors import WindowTooSmallError
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, request_text
from tests.graph.scenario import script_buggy_worker_then_fix, script_planning
from tests.nodes.test_fallback import BIG, SMALL, run, script_small_that_never_fixes


def test_a_server_keeping_512_tokens_is_one_line_at_start_naming_it_and_the_smallest_that_works(repo: Path) -> None:
    with FakeLLM(models=[SMALL]) as small:
        small.ollama_num_ctx = {SMALL: 512}
        script_planning(small)
        with pytest.raises(WindowTooSmallError) as stopped:
            run(small, repo)
        line = str(stopped.value)
        assert "\n" not in line and "budget defect" not in line
        assert f"the ollama server at {small.url} keeps 512 tokens of '{SMALL}'" in line
        found = re.search(r"the smallest window that works is (\d+)", line)
        assert found and "num_ctx" in line
        assert small.requests == []  # no request was sent to be refused


@pytest.mark.slow
def test_the_smallest_window_named_takes_the_run_past_its_start(repo: Path) -> None:
    with FakeLLM(models=[SMALL]) as small:
        small.ollama_num_ctx = {SMALL: 512}
        with pytest.raises(WindowTooSmallError) as stopped:
            run(small, repo)
        smallest = int(re.findall(r"works is (\d+)", str(stopped.value))[0])
        small.ollama_num_ctx = {SMALL: smallest}
        script_planning(small)
        script_buggy_worker_then_fix(small)
        result = run(small, repo)  # no request over the prompt limit: none raised
    assert small.requests and result.status in ("done", "failed")


@pytest.mark.slow
def test_a_fallback_whose_server_keeps_512_tokens_is_skipped_saying_why(repo: Path) -> None:
    with FakeLLM(models=[SMALL]) as small, FakeLLM(models=[BIG]) as big:
        small.ollama_num_ctx = {SMALL: 4096}
        big.ollama_num_ctx = {BIG: 512}
        script_small_that_never_fixes(small)
        url = big.url
        result = run(small, repo, roles={"worker": {"fallback": {"model": BIG, "base_url": url}}})
    code = next(t for t in result.tasks if t.kind == "code")
    assert not code.fallback_model and big.requests == []
    said = [e for e in result.events if e["kind"] == "fallback" and e["task_id"] == code.id]
    (skipped,) = said
    assert skipped["skipped"] and skipped["model"] == BIG
    assert (
        f"fallback {BIG} skipped: its ollama server at {url} keeps 512 tokens, fewer than the " in (skipped["message"])
    )
    assert [r for r in small.requests if SYSTEM["escalate"] in request_text(r)]  # escalated as without a fallback
