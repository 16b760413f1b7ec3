"""The security corpus: every attempt to reach outside the workspace, write around the permission layer,
run what is not whitelisted, or leak the environment is refused in one clear line, and nothing escapes."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.tools.context import ToolContext
from slmcode.tools.toolset import make_tools, run_tool_call
from tests.tools.conftest import PYTHON, SECRET, CallTool

OUTSIDE_MSG = "outside the workspace"
SYMLINK_MSG = "symlink that points outside"
REFUSED = "command refused"

# (tool, arguments, what the error must say). "{outside}" is replaced by the outside folder's path.
CASES: list[tuple[str, dict[str, object], str]] = [
    # Traversal.
    ("ws_read", {"path": "../outside/secret.txt"}, OUTSIDE_MSG),
    ("ws_read", {"path": "src/../../outside/secret.txt"}, OUTSIDE_MSG),
    ("ws_read", {"path": "./../outside/secret.txt"}, OUTSIDE_MSG),
    ("ws_write", {"path": "../evil.txt", "content": "x"}, OUTSIDE_MSG),
    ("ws_edit", {"path": "../outside/secret.txt", "old_str": SECRET, "new_str": "x"}, OUTSIDE_MSG),
    ("ws_list", {"path": ".."}, OUTSIDE_MSG),
    ("ws_search", {"pattern": "SECRET", "path": ".."}, OUTSIDE_MSG),
    # Absolute paths and the home folder.
    ("ws_read", {"path": "/etc/passwd"}, OUTSIDE_MSG),
    ("ws_read", {"path": "{outside}/secret.txt"}, OUTSIDE_MSG),
    ("ws_write", {"path": "{outside}/evil.txt", "content": "x"}, OUTSIDE_MSG),
    ("ws_list", {"path": "/"}, OUTSIDE_MSG),
    ("ws_read", {"path": "~/.bashrc"}, OUTSIDE_MSG),
    # /proc and /dev.
    ("ws_read", {"path": "/proc/self/environ"}, OUTSIDE_MSG),
    ("ws_read", {"path": "/dev/zero"}, OUTSIDE_MSG),
    ("ws_write", {"path": "/dev/null", "content": "x"}, OUTSIDE_MSG),
    ("ws_read", {"path": "proc_link"}, SYMLINK_MSG),
    # Symlinks pointing out.
    ("ws_read", {"path": "link_out/secret.txt"}, SYMLINK_MSG),
    ("ws_read", {"path": "file_link"}, SYMLINK_MSG),
    ("ws_write", {"path": "link_out/new.txt", "content": "x"}, SYMLINK_MSG),
    ("ws_write", {"path": "dangling", "content": "x"}, SYMLINK_MSG),
    ("ws_edit", {"path": "file_link", "old_str": SECRET, "new_str": "x"}, SYMLINK_MSG),
    ("ws_list", {"path": "link_out"}, SYMLINK_MSG),
    ("ws_search", {"pattern": "SECRET", "path": "link_out"}, SYMLINK_MSG),
    # FIFOs, sockets, binary files, protected folders.
    ("ws_read", {"path": "pipe"}, "FIFO"),
    ("ws_write", {"path": "pipe", "content": "x"}, "FIFO"),
    ("ws_read", {"path": "sock"}, "socket"),
    ("ws_read", {"path": "image.bin"}, "binary file"),
    ("ws_write", {"path": ".git/hooks/pre-commit", "content": "#!/bin/sh\nrm -rf /\n"}, "inside .git"),
    ("ws_write", {"path": ".slmcode/pending/0001.json", "content": "{}"}, "inside .slmcode"),
    # Every shell metacharacter, with a part that is not whitelisted or not allowed.
    ("ws_shell", {"command": "ls; rm -rf src"}, "rm is not on the whitelist"),
    ("ws_shell", {"command": "ls && rm -rf src"}, "rm is not on the whitelist"),
    ("ws_shell", {"command": "false || rm -rf src"}, "rm is not on the whitelist"),
    ("ws_shell", {"command": "cat README.md | sh"}, "sh is not on the whitelist"),
    ("ws_shell", {"command": "ls\nrm -rf src"}, "rm is not on the whitelist"),
    ("ws_shell", {"command": "echo `cat ../outside/secret.txt`"}, "substitution"),
    ("ws_shell", {"command": "echo $(cat ../outside/secret.txt)"}, "substitution"),
    ("ws_shell", {"command": 'echo "$(id)"'}, "substitution"),
    ("ws_shell", {"command": "echo ${HOME}"}, "substitution"),
    ("ws_shell", {"command": "echo $OPENAI_API_KEY"}, "substitution"),
    ("ws_shell", {"command": "echo pwned > src/calc.py"}, "files are written with ws_write"),
    ("ws_shell", {"command": "echo pwned >> src/calc.py"}, "files are written with ws_write"),
    ("ws_shell", {"command": "ls 2> errors.txt"}, "files are written with ws_write"),
    ("ws_shell", {"command": "ls &> out.txt"}, "files are written with ws_write"),
    ("ws_shell", {"command": "cat < /etc/passwd"}, OUTSIDE_MSG),
    ("ws_shell", {"command": "sleep 100 &"}, "background"),
    ("ws_shell", {"command": "(rm -rf src)"}, "subshells"),
    # Whitelisted programs pointed outside, or used to write or execute.
    ("ws_shell", {"command": "cat /etc/passwd"}, OUTSIDE_MSG),
    ("ws_shell", {"command": "cat ../outside/secret.txt"}, OUTSIDE_MSG),
    ("ws_shell", {"command": "cat link_out/secret.txt"}, SYMLINK_MSG),
    ("ws_shell", {"command": "cat pipe"}, "FIFO"),
    ("ws_shell", {"command": "grep -r SECRET .."}, OUTSIDE_MSG),
    ("ws_shell", {"command": "grep -R SECRET ."}, "not allowed"),
    ("ws_shell", {"command": "ls --color=never /"}, OUTSIDE_MSG),
    ("ws_shell", {"command": "find . -delete"}, "not allowed"),
    ("ws_shell", {"command": "find . -exec cat {} +"}, "not allowed"),
    ("ws_shell", {"command": "find -L . -name secret.txt"}, "not allowed"),
    ("ws_shell", {"command": "sort -o src/calc.py README.md"}, "not allowed"),
    ("ws_shell", {"command": "git -C .. status"}, "git -C is not on the whitelist"),
    ("ws_shell", {"command": "git diff --output=src/calc.py"}, "not allowed"),
    ("ws_shell", {"command": "git commit -am x"}, "git commit is not on the whitelist"),
    ("ws_shell", {"command": "env"}, "env is not on the whitelist"),
    ("ws_shell", {"command": "printenv"}, "printenv is not on the whitelist"),
    ("ws_shell", {"command": "OPENAI_API_KEY=x ls"}, "not on the whitelist"),
    ("ws_shell", {"command": "python -c 'import os'"}, "python is not on the whitelist"),
    ("ws_shell", {"command": "/bin/sh -c ls"}, "/bin/sh is not on the whitelist"),
    ("ws_shell", {"command": "ls .*/outside"}, "No such file"),  # globs expand inside only: no '..'
]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_corpus_is_big_enough() -> None:
    assert len(CASES) >= 40


@pytest.mark.parametrize(("tool", "args", "expected"), CASES, ids=[f"{t}:{a}" for t, a, _ in CASES])
def test_refused_with_a_clear_message(
    tool: str, args: dict[str, object], expected: str, ctx: ToolContext, workspace: Path, outside: Path
) -> None:
    ctx.read_paths.update({"file_link", "../outside/secret.txt"})  # so edits meet containment, not read-first
    args = {k: v.replace("{outside}", str(outside)) if isinstance(v, str) else v for k, v in args.items()}
    before_in, before_out = _snapshot(workspace / "src"), _snapshot(outside)
    result = run_tool_call(make_tools(ctx), {"name": tool, "args": args, "id": "call_1"})
    content = str(result.content)
    assert expected in content
    assert SECRET not in content
    assert _snapshot(outside) == before_out, "nothing outside changes"
    assert _snapshot(workspace / "src") == before_in, "the shell never writes"
    assert not any((workspace / name).exists() for name in ("errors.txt", "out.txt")), "no redirection target"
    assert not (workspace / ".git" / "hooks" / "pre-commit").exists()
    assert not (outside / "not-yet.txt").exists(), "the dangling symlink was not written through"
    if not expected.startswith("No such"):
        assert content.startswith("Error:") and result.status == "error"
        assert "\n" not in content.split(". Allowed commands:")[0], "one line"


def test_environment_secrets_never_reach_commands(call: CallTool, monkeypatch: pytest.MonkeyPatch) -> None:
    leaks = {
        "OPENAI_API_KEY": "sk-leak-1",
        "GITHUB_TOKEN": "ghp-leak-2",
        "AWS_SECRET_ACCESS_KEY": "aws-leak-3",
        "SLMCODE_API_KEY": "slm-leak-4",
        "DATABASE_URL": "postgres://u:pw-leak-5@db/x",
        "MY_PASSWORD": "leak-6",
    }
    for name, value in leaks.items():
        monkeypatch.setenv(name, value)
    result = call("ws_shell", command=f"{PYTHON} -c 'import os; print(sorted(os.environ.items()))'")
    assert "exit code 0" in result.content
    assert "PATH" in result.content  # the environment is there, minus the secrets
    for value in leaks.values():
        assert value not in result.content


def test_huge_output_is_capped_at_the_capture_limit_and_says_how_much_was_cut(make_ctx) -> None:  # type: ignore[no-untyped-def]
    # The capture cap bounds memory; what stays inline is the offload's business (tests/compact/test_offload.py).
    ctx = make_ctx(tool_output_capture_bytes=50_000)
    result = run_tool_call(
        make_tools(ctx), {"name": "ws_shell", "args": {"command": f"{PYTHON} -c 'print(\"x\" * 5_000_000)'"}, "id": "1"}
    )
    assert 50_000 <= len(result.content) < 50_000 + 300
    assert "bytes cut" in result.content and "exit code 0" in result.content


def test_a_command_past_its_timeout_is_killed(make_ctx) -> None:  # type: ignore[no-untyped-def]
    ctx = make_ctx(shell_timeout_seconds=0.5)
    result = run_tool_call(
        make_tools(ctx),
        {"name": "ws_shell", "args": {"command": f"{PYTHON} -c 'import time; time.sleep(30)'"}, "id": "1"},
    )
    assert "timed out, killed" in result.content


def test_oversized_files_are_previewed_in_slices(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    (workspace / "big.log").write_text("".join(f"line {n}\n" for n in range(200_000)))
    ctx = make_ctx(max_read_bytes=10_000)
    tools = make_tools(ctx)
    read = run_tool_call(tools, {"name": "ws_read", "args": {"path": "big.log", "offset": 1000, "limit": 3}, "id": "1"})
    assert read.content.startswith("1000\tline 999\n1001\tline 1000\n1002\tline 1001")
    edit = run_tool_call(
        tools, {"name": "ws_edit", "args": {"path": "big.log", "old_str": "line 5\n", "new_str": "x"}, "id": "2"}
    )
    assert "over the 10000-byte limit" in edit.content
    search = run_tool_call(tools, {"name": "ws_search", "args": {"pattern": "line 199999"}, "id": "3"})
    assert search.content.startswith("No matches"), "oversized files are skipped by search"


def test_no_shell_at_all_when_denied(make_ctx) -> None:  # type: ignore[no-untyped-def]
    ctx = make_ctx(shell_permission="deny")
    tools = make_tools(ctx)
    assert "ws_shell" not in [t.name for t in tools]
    result = run_tool_call(tools, {"name": "ws_shell", "args": {"command": "ls"}, "id": "1"})
    assert "not a valid tool" in result.content


def test_ask_runs_only_what_the_user_confirms(make_ctx) -> None:  # type: ignore[no-untyped-def]
    ctx = make_ctx(shell_permission="ask")
    asked: list[str] = []
    ctx.confirm = lambda command: asked.append(command) or command == "ls src"
    tools = make_tools(ctx)
    assert "calc.py" in run_tool_call(tools, {"name": "ws_shell", "args": {"command": "ls src"}, "id": "1"}).content
    declined = run_tool_call(tools, {"name": "ws_shell", "args": {"command": "ls"}, "id": "2"})
    assert declined.content == "Error: the user declined to run: ls"
    refused = run_tool_call(tools, {"name": "ws_shell", "args": {"command": "rm x"}, "id": "3"})
    assert REFUSED in refused.content and asked == ["ls src", "ls"], "the whitelist applies before asking"
