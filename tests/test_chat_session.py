"""What a chat request carries into its run (the earlier turns, within the task's room) and what the prompt completes;
no model, no terminal: the session's pieces as `slmcode chat` calls them."""

from __future__ import annotations

from pathlib import Path

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from slmcode.budget.tokens import count_tokens
from slmcode.commands.chat import completer, focus_named
from slmcode.commands.chat_session import SESSION_HEAD, carried_request
from slmcode.compact.longtask import task_room
from slmcode.settings import Settings
from slmcode.store.chat_threads import Turn, load_thread, new_thread, save_thread

DIGEST = "Files read:\n- calc/cli.py\nFiles edited:\n- calc/ops.py\nCommands:\n- python -m pytest -q -> exit 0"


def _turn(n: int, **extra: object) -> Turn:
    return Turn(
        request=f"request number {n}",
        run_id=f"run-{n}",
        outcome="done",
        changed=[f"calc/m{n}.py"],
        verdicts=["the tests pass: PASSED"],
        **extra,
    )  # type: ignore[arg-type]


def test_a_first_request_carries_nothing_but_its_focus_files() -> None:
    thread = new_thread()
    assert carried_request("Add divide", thread, Settings(), Path(".")) == "Add divide"
    thread.focus = ["calc/ops.py"]
    assert carried_request("Add divide", thread, Settings(), Path(".")) == "Add divide\n\nFocus files: calc/ops.py"


def test_a_follow_up_carries_the_earlier_requests_outcomes_files_and_the_latest_digest() -> None:
    thread = new_thread()
    thread.turns = [_turn(1, digest=DIGEST), _turn(2, digest=DIGEST)]
    carried = carried_request("Now wire it in", thread, Settings(context_limit=32768), Path("."))
    assert carried.startswith("Now wire it in\n\n" + SESSION_HEAD)  # the request first: a preview cut keeps it
    assert (
        '1. run "request number 1" | outcome: done | changed: calc/m1.py | verdicts: the tests pass: PASSED' in carried
    )
    assert "request number 2" in carried and "- python -m pytest -q -> exit 0" in carried


def test_a_long_session_drops_digests_then_the_oldest_turns_to_stay_within_the_task_room() -> None:
    settings = Settings(context_limit=4096)
    room = task_room(settings)
    thread = new_thread()
    thread.turns = [_turn(n, digest=DIGEST) for n in range(1, 40)]
    carried = carried_request("Next", thread, settings, Path("."))
    block = carried.removeprefix("Next\n\n")
    assert count_tokens(block) <= room // 2  # half the room stays for the request itself
    assert "request number 39" in carried  # the latest turn stays
    assert '1. run "request number 1"' not in carried  # the oldest went first


def test_the_thread_survives_a_restart(tmp_path: Path) -> None:
    thread = new_thread()
    thread.turns.append(_turn(1))
    thread.pending = {"run_id": "run-2", "request": "cut off"}
    save_thread(tmp_path, thread)
    again = load_thread(tmp_path)
    assert again == thread


def _completions(root: Path, text: str) -> list[str]:
    return [c.text for c in completer(root).get_completions(Document(text), CompleteEvent())]


def test_slash_commands_and_workspace_paths_after_an_at_sign_complete(tmp_path: Path) -> None:
    (tmp_path / "calc").mkdir()
    (tmp_path / "calc" / "ops.py").write_text("")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("")
    assert _completions(tmp_path, "/un") == ["/undo"]
    assert set(_completions(tmp_path, "/")) >= {"/diff", "/undo", "/rewind", "/ask", "/exit"}
    assert _completions(tmp_path, "fix @calc/o") == ["@calc/ops.py"]
    assert _completions(tmp_path, "fix @") == ["@calc/", "@calc/ops.py"]  # nothing from .git
    assert _completions(tmp_path, "fix calc/o") == []  # a path completes only after @


def test_an_at_path_in_a_request_becomes_a_focus_file() -> None:
    assert focus_named("explain @calc/ops.py and @README.md, please") == (
        "explain calc/ops.py and README.md, please",
        ["calc/ops.py", "README.md"],
    )
    assert focus_named("mail me at a@b.c") == ("mail me at a@b.c", [])


def test_files_the_session_names_do_not_become_focus_files_of_the_next_request(tmp_path: Path) -> None:
    """The splitter makes each file a request names a focus file, and the completeness gate fails a task that does
    not touch one: files named in the carried lines must not count, the request's own must."""
    from slmcode.packs.named import named_files

    for name in ("calc/ops.py", "calc/cli.py", "README.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    thread = new_thread()
    thread.turns = [
        Turn(
            request="what does calc/cli.py do? see README.md",
            kind="ask",
            outcome="done",
            answer="calc/cli.py maps names to calc/ops.py",
            digest="Files read:\n- calc/cli.py",
        ),
        _turn(2, digest="Files edited:\n- calc/ops.py"),
    ]
    carried = carried_request("Add power to calc/ops.py", thread, Settings(context_limit=32768), tmp_path)
    assert named_files(carried, tmp_path) == ["calc/ops.py"]
    assert "file:calc/cli.py" in carried and "file:README.md" in carried  # still there for the model to read


def test_requests_from_a_pipe_one_a_line_and_slash_commands_without_a_model(tmp_path: Path) -> None:
    from tests.inprocess import slmcode

    (tmp_path / "calc").mkdir()
    (tmp_path / "calc" / "ops.py").write_text("")
    lines = "/add @calc/ops.py\n/mode review\n/mode fast\n/status\n/drop calc/ops.py\n/frob\n/add nowhere.py\n/exit\n"
    done = slmcode("chat", "-w", str(tmp_path), stdin=lines)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "focus for the next request: calc/ops.py" in out
    assert "mode review from the next request on" in out
    assert "error: usage: /mode auto|review|dry-run" in out
    assert "mode review; focus calc/ops.py" in out  # /status
    assert "focus for the next request: none" in out
    assert "unknown command /frob: /help lists them" in out
    assert "error: no nowhere.py in" in out
    assert "Traceback" not in out + done.stderr
