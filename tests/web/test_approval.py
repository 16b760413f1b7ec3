"""Plan approval from the page: a run stopped at its plan (`--approve plan`) shows its tasks with Drop and an
Approve button; dropping goes through the same edit as `slmcode task drop`, and approving continues the run
in the server, which then does exactly the approved tasks."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from slmcode import api
from slmcode.commands.board import PlanPaused, plan_answerer
from slmcode.store.trace import TraceStore
from tests.board.scenario import script_team, worker_requests
from tests.fake_llm import FakeLLM
from tests.web.conftest import serving


def paused_run(fake: FakeLLM, repo: Path) -> str:
    """A run stopped at its plan, as `slmcode run --approve plan` leaves it."""
    with pytest.raises(PlanPaused) as paused:
        api.run(
            "Add divide and power",
            repo,
            base_url=fake.url,
            model="qwen2.5-coder:7b",
            request_retries=0,
            approve="plan",
            answer=plan_answerer(api.auto_answer, pause=True),
        )
    return paused.value.run_id


def test_a_plan_is_edited_and_approved_from_the_page(fake_llm: FakeLLM, repo: Path) -> None:
    script_team(fake_llm)
    run_id = paused_run(fake_llm, repo)
    with serving(repo) as web:
        page = web.get(f"/runs/{run_id}").text
        assert "Plan waiting for your approval" in page and "Draw a logo" in page and "Add divide" in page
        logo = re.search(r"<td>(r1t\d)</td><td>Draw a logo</td>", page)
        assert logo, page
        dropped = web.post(f"/runs/{run_id}/plan/drop", {"token": web.token, "task": logo.group(1)})
        assert dropped.status == 200 and f"dropped {logo.group(1)}" in dropped.text
        assert "Draw a logo" not in dropped.text.split("id=approval", 1)[1].split("</section>")[0]
        unknown = web.post(f"/runs/{run_id}/plan/drop", {"token": web.token, "task": "r9t9"})
        assert unknown.status == 409 and "unknown task id &#x27;r9t9&#x27;" in unknown.text

        approved = web.post(f"/runs/{run_id}/plan/approve", {"token": web.token})
        assert approved.status == 200 and f"approved: run {run_id} goes on" in approved.text
        store = TraceStore.for_workspace(repo)
        deadline = time.monotonic() + 240
        while store.run(run_id).status in ("running", "interrupted", "waiting") and time.monotonic() < deadline:
            time.sleep(0.2)
        assert store.run(run_id).outcome == "done", store.run(run_id)
        again = web.post(f"/runs/{run_id}/plan/approve", {"token": web.token})
        assert again.status == 409 and "not waiting for plan approval" in again.text
    assert "def divide" in (repo / "calc" / "ops.py").read_text()
    assert worker_requests(fake_llm, "TASK-DIVIDE") and not worker_requests(fake_llm, "TASK-LOGO")
