"""`slmcode chat`: an interactive session. Each request is a run of the pipeline (chat_run), slash commands act on
the session and its runs (chat_slash), the thread of requests lives in .slmcode/chat/ (chat_session).

The prompt is prompt_toolkit's: input history in .slmcode/chat/history across sessions, Esc Enter (or a line
ending in a backslash) for another line, completion of slash commands and, after `@`, of workspace paths.
Ctrl-C at the prompt clears the line; during a run it stops the run (a second press exits at once); Ctrl-D
exits. A session killed in the middle of a run offers to resume that run when it starts again.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from slmcode.commands.common import BaseUrlOpt, ModelOpt, WorkspaceOpt, console, settings_for
from slmcode.treewalk import walk

app = typer.Typer()

PROMPT = "slmcode> "
MORE = "... "
MAX_PATHS = 5000  # completion walks the workspace once; a huge tree is cut, not waited for
SKIPPED_DIRS = {".git", ".slmcode", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache"}
AT_PATH = re.compile(r"(?<!\S)@([\w./-]+)")


def workspace_paths(root: Path) -> list[str]:
    """Files and folders under the workspace for `@` completion, dot-folders and build folders left out."""
    found: list[str] = []
    for folder, dirs, files in walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        rel = Path(folder).relative_to(root)
        found.extend(f"{(rel / d).as_posix()}/" for d in dirs)
        found.extend((rel / f).as_posix() for f in sorted(files))
        if len(found) >= MAX_PATHS:
            break
    return found[:MAX_PATHS]


def completer(root: Path) -> Any:
    from prompt_toolkit.completion import Completer, Completion

    from slmcode.commands.chat_slash import COMMANDS

    class ChatCompleter(Completer):
        paths: list[str] | None = None

        def get_completions(self, document: Any, complete_event: Any) -> Iterator[Any]:
            text = document.text_before_cursor
            if text.startswith("/") and " " not in text:
                for name in COMMANDS:
                    if name.startswith(text[1:]):
                        yield Completion(f"/{name}", start_position=-len(text))
                return
            word = text.split(" ")[-1].split("\n")[-1]
            if word.startswith("@"):
                if self.paths is None:
                    self.paths = workspace_paths(root)
                for path in self.paths:
                    if path.startswith(word[1:]):
                        yield Completion(f"@{path}", start_position=-len(word))

    return ChatCompleter()


def key_bindings() -> Any:
    from prompt_toolkit.key_binding import KeyBindings

    bindings = KeyBindings()

    @bindings.add("escape", "enter")
    def _newline(event: Any) -> None:
        event.current_buffer.insert_text("\n")

    @bindings.add("enter")
    def _enter(event: Any) -> None:
        buffer = event.current_buffer
        if buffer.text.endswith("\\"):  # a line ending in a backslash goes on, as in a shell
            buffer.delete_before_cursor(1)
            buffer.insert_text("\n")
        else:
            buffer.validate_and_handle()

    return bindings


def prompt_session(workspace: Path) -> Any:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory

    from slmcode.store.chat_threads import history_path

    return PromptSession(
        history=FileHistory(str(history_path(workspace))),
        completer=completer(workspace),
        key_bindings=key_bindings(),
        multiline=True,
        prompt_continuation=MORE,
        complete_while_typing=False,
    )


def focus_named(text: str) -> tuple[str, list[str]]:
    """`@path` in a request: the path (without `@`) in the text, and the path as a focus file."""
    named = AT_PATH.findall(text)
    return AT_PATH.sub(lambda m: m.group(1), text), named


def terminal_reader(workspace: Path) -> Any:
    session = prompt_session(workspace)
    return lambda message, multiline: session.prompt(message, multiline=multiline)


def piped_reader(message: str, multiline: bool) -> str:
    """Requests from a pipe or a file (`slmcode chat < requests.txt`): one a line, no editor, EOFError at the end."""
    sys.stdout.write(message)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    sys.stdout.write(line if line.endswith("\n") else line + "\n")  # as a terminal would echo it
    return line.rstrip("\n")


def offer_resume(state: Any, ask: Any) -> None:
    """The thread's run that a kill or a Ctrl-C cut off: offered once at the start."""
    from slmcode.commands.chat_run import resume
    from slmcode.store.trace import TraceStore
    from slmcode.store.trace_reads import RESUMABLE

    pending = state.thread.pending
    if not pending:
        return
    with TraceStore.for_workspace(state.workspace) as store:
        try:
            status = store.run(pending["run_id"]).status
        except Exception:  # the trace no longer knows it: nothing to offer
            status = ""
    if status not in RESUMABLE:
        state.thread.pending = None
        return
    console.print(
        f'The last run of this session, {pending["run_id"]} ("{pending["request"][:60]}"), was cut '
        "off before it ended.",
        highlight=False,
        markup=False,
    )
    if ask("Resume it? [Y/n] ").strip().lower() in ("", "y", "yes"):
        resume(state, pending["run_id"], pending["request"])
    else:
        console.print("Left as it is: /resume continues it later.", highlight=False)


def loop(state: Any, lines: Iterable[str] | None = None) -> None:
    from slmcode.commands.chat_run import request
    from slmcode.commands.chat_slash import ExitChat, dispatch

    read = terminal_reader(state.workspace) if sys.stdin.isatty() else piped_reader

    def ask(message: str) -> str:
        return read(message, False)

    try:
        offer_resume(state, ask)
    except (KeyboardInterrupt, EOFError):
        console.print("")
    console.print(
        f"slmcode chat in {state.workspace.resolve()}: type a request, /help for commands, Ctrl-D to leave.",
        highlight=False,
    )
    while True:
        try:
            line = read(PROMPT, True).strip()
        except KeyboardInterrupt:
            continue  # Ctrl-C at the prompt clears the line
        except EOFError:
            break
        if not line:
            continue
        if line.startswith("/"):
            try:
                dispatch(state, line)
            except ExitChat:
                break
            continue
        text, named = focus_named(line)
        state.thread.focus = sorted({*state.thread.focus, *named})
        request(state, text)
    console.print("bye", highlight=False)


@app.command()
def chat(
    workspace: WorkspaceOpt = Path("."),
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    permission: Annotated[
        str | None,
        typer.Option(
            "--permission", help="auto (write), dry-run (record only), review (stage patches); /mode changes it."
        ),
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Answer every question of a run automatically.")] = False,
    git_mode: Annotated[str | None, typer.Option("--git-mode", help="off, branch or in-place (as for run).")] = None,
    agent: Annotated[str | None, typer.Option("--agent", help="One specialist for every request (as for run).")] = None,
) -> None:
    """An interactive session: each request is a run that sees what the session already did; /help lists the
    slash commands."""
    from slmcode.commands.chat_run import ChatState
    from slmcode.store.chat_threads import load_thread

    flags: dict[str, Any] = {
        "model": model,
        "base_url": base_url,
        "permission": permission,
        "git_mode": git_mode,
        "agent": agent,
    }
    flags = {k: v for k, v in flags.items() if v is not None}
    settings_for(workspace, **flags)  # a broken config is one line before the prompt
    state = ChatState(workspace, flags, load_thread(workspace), yes)
    loop(state)
