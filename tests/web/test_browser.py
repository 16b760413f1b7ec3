"""The web view in a real browser: follow a scripted run live until it ends, open its task's diff and pack,
apply a pending patch with the keyboard, and read the pages at desktop and phone width."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from slmcode import api
from slmcode.eval.scripted import Rule, system_text
from slmcode.nodes.prompts import SYSTEM
from slmcode.store.trace import TraceStore
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import script_buggy_worker_then_fix, script_planning
from tests.web.browser import chromium_driver, screenshot
from tests.web.conftest import serving
from tests.web.test_server import stage_patch

pytestmark = pytest.mark.browser
WAIT_S = 120


@pytest.fixture
def driver() -> Iterator[object]:
    yield from chromium_driver()


def wait_for(condition, what: str, timeout: float = WAIT_S) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not _holds(condition):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def _holds(condition) -> bool:  # type: ignore[no-untyped-def]
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    try:
        return bool(condition())
    except sqlite3.OperationalError:  # the run is creating its trace file this very moment
        return False
    except StaleElementReferenceException:  # the live script replaced the element as it was read
        return False
    except NoSuchElementException:  # a form's answer is loading: the old page is gone, the new one not yet in
        return False


def gate_first_worker_turn(fake: FakeLLM) -> threading.Event:
    """Hold the worker's first model call until the test opened the run page: all that follows must reach the
    page through the live stream."""
    opened = threading.Event()

    def held(_request: object) -> Reply:
        opened.wait(WAIT_S)
        return Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")])

    fake.rules.insert(0, Rule(lambda req: system_text(req).startswith(SYSTEM["worker"]), [held], times=1))
    return opened


def test_a_run_is_followed_live_until_it_ends_then_its_task_diff_and_pack_open(
    driver,
    fake_llm: FakeLLM,
    repo: Path,  # type: ignore[no-untyped-def]
) -> None:
    from selenium.webdriver.common.by import By

    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm)
    opened = gate_first_worker_turn(fake_llm)
    results: list[api.RunResult] = []
    runner = threading.Thread(
        target=lambda: results.append(
            api.run("Add a divide operation", repo, base_url=fake_llm.url, model="qwen2.5-coder:7b", request_retries=0)
        )
    )
    with serving(repo) as web:
        runner.start()
        try:
            store = TraceStore.for_workspace(repo)
            wait_for(
                lambda: any(
                    e.kind == "pack" and e.role == "worker" for r in store.runs() for e in store.timeline(r.run_id)
                ),
                "the worker's first pack",
            )
            driver.get(f"{web.base}/?token={web.token}")
            assert driver.find_element(By.CSS_SELECTOR, "tbody .s-running").text == "running"
            screenshot(driver, "runs-list")
            driver.find_element(By.PARTIAL_LINK_TEXT, "Add a divide operation").click()
            assert driver.find_element(By.ID, "live").get_attribute("data-state") == "live"
            rows_at_load = len(driver.find_elements(By.CSS_SELECTOR, "#events tr"))
            opened.set()
            wait_for(lambda: driver.find_element(By.ID, "status").text == "done", "the run to end on the page")
            kinds = [td.text for td in driver.find_elements(By.CSS_SELECTOR, "#events tr td:nth-child(3)")]
            assert len(kinds) > rows_at_load + 10 and kinds[-1] == "run_finished"
            assert driver.find_element(By.CSS_SELECTOR, "#phase [aria-current]").text == "learn"
            assert driver.find_element(By.ID, "live").get_attribute("data-state") == "ended"
            screenshot(driver, "run-page")
        finally:
            opened.set()
            runner.join(WAIT_S)
        assert results and results[0].outcome == "done"
        rows = driver.find_elements(By.CSS_SELECTOR, "#board tbody tr")
        next(r for r in rows if "Add divide" in r.text).find_element(By.TAG_NAME, "a").click()
        added = [line.text for line in driver.find_elements(By.CSS_SELECTOR, ".diff .add")]
        assert "+    return a / b" in added  # the corrector's fix, as a diff line
        assert "PASSED" in driver.find_element(By.TAG_NAME, "main").text
        screenshot(driver, "task-page")
        driver.execute_script("document.getElementById('files').scrollIntoView()")
        screenshot(driver, "task-diff")
        driver.execute_script("document.getElementById('packs').scrollIntoView()")
        screenshot(driver, "task-packs")
        # The worker's conversation from the real run, with the cuts its last request made.
        first = driver.find_element(By.CSS_SELECTOR, "details.conversation summary")
        assert "the last request sent" in first.text  # the worker's `view` event names this stored conversation
        first.send_keys(" ")  # opened with the keyboard
        shown = driver.find_element(By.CSS_SELECTOR, "details.conversation[open]").text
        assert "model: ws_read" in shown and "result of ws_read" in shown
        driver.execute_script("document.getElementById('conversation').scrollIntoView()")
        screenshot(driver, "task-conversation")
        driver.find_element(By.PARTIAL_LINK_TEXT, "read the last worker pack").click()
        assert "calc/ops.py" in driver.find_element(By.ID, "pack-text").text
        screenshot(driver, "pack-page")


def test_a_pending_patch_is_applied_with_the_keyboard(driver, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    (workspace / "notes.txt").write_text("draft\n")
    stage_patch(workspace, "notes.txt", "draft", "final")
    with serving(workspace) as web:
        driver.get(f"{web.base}/patches?token={web.token}")
        assert "+final" in driver.find_element(By.CSS_SELECTOR, ".diff").text
        screenshot(driver, "patches-page")
        body = driver.find_element(By.TAG_NAME, "body")
        for _ in range(20):  # Tab through real links and buttons to the Apply button
            body.send_keys(
                Keys.TAB
            ) if driver.switch_to.active_element.tag_name == "body" else driver.switch_to.active_element.send_keys(
                Keys.TAB
            )
            if driver.switch_to.active_element.text == "Apply 0001":
                break
        assert driver.switch_to.active_element.text == "Apply 0001"
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait_for(lambda: "applied 0001" in driver.find_element(By.TAG_NAME, "main").text, "the apply notice")
        assert (workspace / "notes.txt").read_text() == "final\n"


def test_pages_fit_a_phone_width(driver, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    from tests.web.test_server import record_run

    record_run(workspace, query="Add divide to calc/ops.py and a test for it in tests/test_ops.py")
    with serving(workspace) as web:
        driver.set_window_size(390, 844)
        driver.get(f"{web.base}/?token={web.token}")
        for path in ("/", "/runs/run-1", "/runs/run-1/tasks/t1"):
            driver.get(web.base + path)
            overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, f"{path} scrolls sideways by {overflow}px at phone width"
        screenshot(driver, "task-page-phone")


def test_a_lesson_is_deleted_from_the_memory_page(driver, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    from datetime import UTC, datetime

    from selenium.webdriver.common.by import By

    from slmcode.memory.lessons import render_memory
    from slmcode.memory.skills_store import render_skill
    from slmcode.store.sessions import SessionSnapshot, write_snapshot

    state = workspace / ".slmcode"
    lessons = ["Run python -m pytest -q after editing calc/ops.py", "calc/cli.py maps names to ops functions"]
    (state / "skills" / "learned" / "tests-first").mkdir(parents=True)
    (state / "MEMORY.md").write_text(render_memory("", lessons))
    (state / "skills" / "learned" / "tests-first" / "SKILL.md").write_text(
        render_skill("tests first", "Write the test in tests/ before the change", "Add the test, see it fail.")
    )
    write_snapshot(
        workspace,
        SessionSnapshot(
            run_id="run-1",
            thread_id="run-1",
            created_at=datetime.now(UTC),
            query="Add divide",
            summary="divide added with its test",
        ),
    )
    with serving(workspace) as web:
        driver.get(f"{web.base}/memory?token={web.token}")
        screenshot(driver, "memory-page")
        row = next(r for r in driver.find_elements(By.CSS_SELECTOR, "tbody tr") if "calc/cli.py maps" in r.text)
        row.find_element(By.TAG_NAME, "button").click()
        wait_for(lambda: "dropped" in driver.find_element(By.TAG_NAME, "main").text, "the delete notice")
        memory = (state / "MEMORY.md").read_text()
        assert "calc/cli.py maps" not in memory and lessons[0] in memory
