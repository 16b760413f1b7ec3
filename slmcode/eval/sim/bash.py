"""The simulated model on the mini-swe-agent-like protocol (eval/mini_swe.py): no tools on the wire, one bash
command per reply. It reads the conversation as it reads a tool-calling one (each command it sent, paired with
the output that came back, becomes the step that command is: a read, a search, a listing, an edit, a test
run), plans with the same policy, makes its profile's errors, and writes the step back as the shell command a
model on that protocol sends: `nl -ba` to read, grep to search, find to list, a python heredoc to replace text,
a cat heredoc to write a file whole, the test command, and the submit marker to finish. Its malformed answer is
the protocol's own (no single bash block), at the profile's malformed_args rate."""

from __future__ import annotations

import ast
import re
import shlex

from slmcode.eval.prompts import MINI_SWE_SUBMIT, MINI_SWE_SYSTEM
from slmcode.eval.scripted import Reply
from slmcode.eval.sim.errors import Dice
from slmcode.eval.sim.policy import Action
from slmcode.eval.sim.shown import Request, Shown, Step, content_text
from slmcode.tools.registry import EDIT, LIST, READ, SEARCH, SHELL, WRITE

EOF_MARK = "SIM_EOF"
READ_LINES = 200  # a read from an offset shows this many lines, as `sed -n` ranges models write do
_OUTPUT = re.compile(r"^<returncode>(-?\d+)</returncode>\n<output>\n(.*)</output>$", re.DOTALL)
_BLOCK = re.compile(r"```bash\s*\n(.*?)\n```", re.DOTALL)
_READ = re.compile(r"^nl -ba (\S+)(?: \| sed -n '(\d+),\d+p')?$")
_SEARCH = re.compile(r"^grep -rn (\S+) \.$")
_LIST = re.compile(r"^find (\S+) -maxdepth 1")
_WRITE = re.compile(rf"^cat > (\S+) <<'{EOF_MARK}'\n(.*)\n{EOF_MARK}$", re.DOTALL)
_REPLACE = re.compile(r"^(path|old|new) = (.*)$", re.MULTILINE)


def is_bash_protocol(shown: Shown) -> bool:
    return MINI_SWE_SYSTEM in shown.system


def _step(command: str, result: str | None) -> Step:
    """The step a command it sent is, read back from the command's shape (its own: it wrote them)."""
    if found := _READ.match(command):
        args: dict[str, object] = {"path": shlex.split(found.group(1))[0]}
        if found.group(2):
            args["offset"] = int(found.group(2))
        return Step(READ, args, result)
    if found := _SEARCH.match(command):
        return Step(SEARCH, {"pattern": shlex.split(found.group(1))[0]}, result)
    if found := _LIST.match(command):
        return Step(LIST, {"path": shlex.split(found.group(1))[0]}, result)
    if found := _WRITE.match(command):
        return Step(WRITE, {"path": shlex.split(found.group(1))[0], "content": found.group(2) + "\n"}, result)
    if command.startswith("python3 - <<"):
        parts = {key: value for key, value in _REPLACE.findall(command)}
        try:
            values = {
                key: ast.literal_eval(value.removeprefix("Path(").removesuffix(")")) for key, value in parts.items()
            }
        except (ValueError, SyntaxError):
            values = {}
        if {"path", "old", "new"} <= values.keys():
            return Step(EDIT, {"path": values["path"], "old_str": values["old"], "new_str": values["new"]}, result)
    return Step(SHELL, {"command": command}, result)


def _result(text: str) -> str:
    """An observation as a tool result: a non-zero return code reads as an error, as a failed tool's does."""
    found = _OUTPUT.match(text.strip())
    if not found:
        return text
    code, output = int(found.group(1)), found.group(2)
    return output if code == 0 else f"Error: exit code {code}\n{output}"


def read_bash(request: Request, shown: Shown) -> Shown:
    """`shown` (the request's text and system prompt) with the commands it sent as steps."""
    messages = request.get("messages") or []
    steps: list[Step] = []
    for at, message in enumerate(messages):
        if message.get("role") != "assistant":
            continue
        blocks = _BLOCK.findall(content_text(message.get("content")))
        if len(blocks) != 1:
            continue  # answered with a format error: nothing ran
        after = messages[at + 1] if at + 1 < len(messages) else None
        result = _result(content_text(after.get("content"))) if after and after.get("role") == "user" else None
        steps.append(_step(blocks[0].strip(), result))
    return Shown(
        text=shown.text,
        system=shown.system,
        steps=steps,
        assistant_turns=shown.assistant_turns,
        tools={READ, LIST, SEARCH, WRITE, EDIT, SHELL},
    )


def command_of(action: Action) -> str:
    """The shell command that is the step `action`."""
    args, quote = action.args, shlex.quote
    if not action.is_call:
        return f"echo {MINI_SWE_SUBMIT}"
    if action.name == READ:
        path = quote(str(args.get("path", "")))
        offset = int(args.get("offset") or 0)
        return f"nl -ba {path} | sed -n '{offset},{offset + READ_LINES - 1}p'" if offset > 1 else f"nl -ba {path}"
    if action.name == SEARCH:
        return f"grep -rn {quote(str(args.get('pattern', '')))} ."
    if action.name == LIST:
        return f"find {quote(str(args.get('path') or '.'))} -maxdepth 1 -not -name '.*'"
    if action.name == WRITE:
        content = str(args.get("content", "")).removesuffix("\n")
        return f"cat > {quote(str(args.get('path', '')))} <<'{EOF_MARK}'\n{content}\n{EOF_MARK}"
    if action.name == EDIT:
        return "\n".join(
            [
                f"python3 - <<'{EOF_MARK}'",
                "from pathlib import Path",
                f"path = Path({str(args.get('path', ''))!r})",
                f"old = {str(args.get('old_str', ''))!r}",
                f"new = {str(args.get('new_str', ''))!r}",
                "text = path.read_text()",
                "if old not in text:",
                "    raise SystemExit(f'{path}: the text to replace is not in the file')",
                "path.write_text(text.replace(old, new, 1))",
                EOF_MARK,
            ]
        )
    return str(args.get("command", ""))


def bash_reply(action: Action, dice: Dice) -> Reply:
    """The reply on the wire: a THOUGHT and one bash block, or (its malformed answer) none or two."""
    thought = "THOUGHT: I am done." if not action.is_call else f"THOUGHT: next, {action.name.removeprefix('ws_')}."
    command = command_of(action)
    if dice.rolls("malformed_args"):
        if dice.rng.random() < 0.5:
            return Reply(content=f"{thought}\n\n{command}")  # the command without its fence
        return Reply(content=f"{thought}\n\n```bash\n{command}\n```\n\nor:\n\n```bash\nls\n```")
    return Reply(content=f"{thought}\n\n```bash\n{command}\n```")
