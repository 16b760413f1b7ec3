"""The run and task pages read as a person reads them, in a real browser at 1,280 pixels: a live run shows its
model call in flight as the tokens arrive, "running" stays on one line, event rows are words rather than JSON,
the board counts each task's model requests as the terminal board does (and says so), and a task corrected
several times shows each criterion once, at its latest check."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from slmcode.store.trace import TraceStore
from tests.fake_llm import FakeLLM, Reply
from tests.graph.scenario import script_buggy_worker_then_fix, script_planning
from tests.web.browser import chromium_driver, screenshot
from tests.web.conftest import serving
from tests.web.test_browser import WAIT_S, wait_for

pytestmark = pytest.mark.browser
THOUGHT = "Reading calc/ops.py to see how multiply is written before I add divide right beside it. " * 8


@pytest.fixture
def driver() -> Iterator[object]:
    yield from chromium_driver()


def test_the_run_and_task_pages_read_as_words_and_count_as_the_terminal(  # type: ignore[no-untyped-def]
    driver, fake_llm: FakeLLM, repo: Path
) -> None:
    from selenium.webdriver.common.by import By

    script_planning(fake_llm)
    worker = len(fake_llm.rules)
    script_buggy_worker_then_fix(fake_llm, fix=False)
    first = fake_llm.rules[worker].replies[0]
    assert isinstance(first, Reply)  # sent slowly, with words before its tool call: about 8 s of streaming
    fake_llm.rules[worker].replies[0] = Reply(content=THOUGHT, tool_calls=first.tool_calls, chunk_delay=0.2)
    fake_llm.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    results: list[api.RunResult] = []
    runner = threading.Thread(
        target=lambda: results.append(
            api.run("Add a divide operation", repo, base_url=fake_llm.url, model="qwen2.5-coder:7b", max_retries=2)
        )
    )
    store = TraceStore.for_workspace(repo)
    with serving(repo) as web:
        runner.start()
        try:
            wait_for(lambda: store.runs(), "the run to start")
            run_id = store.runs()[0].run_id
            driver.get(f"{web.base}/runs/{run_id}?token={web.token}")
            running = driver.find_element(By.CSS_SELECTOR, "#status .s-running")
            assert driver.execute_script("return arguments[0].getClientRects().length", running) == 1  # one line
            wait_for(
                lambda: driver.find_element(By.ID, "events").text.count("in flight") >= 2,
                "the call in flight on the page, twice as it goes on",
            )
            flying = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "#events tr") if "in flight" in r.text]
            assert "tokens so far" in flying[0] and "multiply is written" in flying[-1]  # its words as they came
            assert flying[-1] != flying[0]  # the count grew while the call ran
            screenshot(driver, "run-page-live")
            wait_for(lambda: driver.find_element(By.ID, "status").text != "running", "the run to end on the page")
        finally:
            runner.join(WAIT_S)
        assert results and not results[0].ok
        whats = [td.text for td in driver.find_elements(By.CSS_SELECTOR, "#events tr td:nth-child(6)")]
        assert whats and not [w for w in whats if w.startswith("{")], [w for w in whats if w.startswith("{")][:3]
        screenshot(driver, "run-page-failed")
        headers = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#board th")]
        assert "model requests" in headers
        row = next(r for r in driver.find_elements(By.CSS_SELECTOR, "#board tbody tr") if "Add divide" in r.text)
        shown = int(row.find_elements(By.TAG_NAME, "td")[headers.index("model requests")].text)
        calls = [e for e in store.timeline(run_id) if e.kind == "model_call" and e.task_id == "r1t1"]
        assert shown == len(calls)  # the terminal board counts the same events as they stream
        row.find_element(By.TAG_NAME, "a").click()
        timeline = store.timeline(run_id)
        checks = [e for e in timeline if e.kind == "verdict" and e.task_id == "r1t1" and "evidence" in e.data]
        criteria = {str(e.data["criterion"]) for e in checks}
        assert len(checks) > len(criteria)  # the criteria were checked more than once...
        evidence = driver.find_elements(By.CSS_SELECTOR, "main table.stack pre")
        assert len(evidence) == len(criteria)  # ...and each shows once, at its latest check
        notes = [n for n in driver.find_elements(By.CSS_SELECTOR, "ul.notes li") if n.is_displayed()]
        assert len(notes) == 1  # the latest review note; the earlier rounds' are folded
        assert "earlier" in driver.find_element(By.TAG_NAME, "main").text
        screenshot(driver, "task-page-failed")
