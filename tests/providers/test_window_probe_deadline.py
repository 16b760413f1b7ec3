"""A server slow to say its window does not hold the run's start: all the window probes together have one
deadline, and the run says what it waits for. The scripted server trickles its answer one byte at a time, so
every read gets a byte and no read timeout fires."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from slmcode import api
from slmcode.providers.server_window import PROBE_DEADLINE, ServerWindow, server_window
from slmcode.terminal import RunView
from tests.fake_llm import FakeLLM
from tests.graph.scenario import script_buggy_worker_then_fix, script_planning
from tests.providers.test_window_probe import MODEL, pose

TRICKLE = 1.5  # seconds between two bytes: the answer takes minutes to come whole


@pytest.fixture
def trickling() -> FakeLLM:
    """A server posing as llama.cpp and Ollama at once, each answer trickled."""
    with FakeLLM(models=[MODEL]) as fake:
        pose(fake, "llama.cpp", 4096)
        fake.get_routes["/api/version"] = {"version": "0.12.0"}
        fake.trickle = {"/api/version": TRICKLE, "/props": TRICKLE}
        yield fake


def test_trickling_probes_give_up_together_and_say_what_they_wait_for(trickling: FakeLLM) -> None:
    told: list[str] = []
    found = server_window(trickling.url, MODEL, waiting=told.append)
    assert found == ServerWindow("unknown", None, gave_up=True)  # not the 4,096 the trickle would say at last
    assert told == [f"asking {trickling.url.removesuffix('/v1')} which window it keeps (at most {PROBE_DEADLINE:g} s)"]


@pytest.mark.slow
def test_a_run_on_a_trickling_server_starts_and_says_it_gave_up_asking(trickling: FakeLLM, repo: Path) -> None:
    script_planning(trickling)
    script_buggy_worker_then_fix(trickling)
    console = Console(width=200, record=True, color_system=None, force_terminal=False)
    with RunView(console) as view:
        result = api.run(
            "Add a divide operation",
            repo,
            base_url=trickling.url,
            model=MODEL,
            on_event=view.on_event,
            request_retries=0,
        )
    assert result.outcome == "done", result.outcome
    shown = console.export_text()
    assert "which window it keeps (at most" in shown
    assert f"the server did not say its window within {PROBE_DEADLINE:g} s (gave up asking)" in shown
