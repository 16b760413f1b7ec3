"""aider's "diff" edit format for the aider-like peer: search/replace blocks parsed from the model's text, each
applied as one ws_edit (so through the permission layer and the wall), and the blocks that did not apply told
back to the model, as aider tells its model (a reflection). A block is malformed when its markers do not parse
or its SEARCH text is not in the file as it is now."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from slmcode.eval.prompts import AIDER_DIFF_BLOCK, AIDER_DIFF_FAILED

# A path alone on its line, then a fence holding SEARCH / divider / REPLACE. Both parts end with a newline (or
# are empty), so the divider and the closing marker each start a line.
BLOCK = re.compile(
    r"^[ \t]*`?([\w./-]+\.\w+)`?[ \t]*\n```[^\n]*\n<<<<<<< SEARCH[ \t]*\n(.*?)^=======[ \t]*\n(.*?)"
    r"^>>>>>>> REPLACE[ \t]*\n```",
    re.MULTILINE | re.DOTALL,
)
OPENING = re.compile(r"^<<<<<<< SEARCH", re.MULTILINE)
FAILED = "Error"  # how a ws_* tool's failure begins (tools/toolset.run_tool_call)


@dataclass(frozen=True)
class Block:
    path: str
    search: str
    replace: str


@dataclass(frozen=True)
class Applied:
    """What an answer's blocks did: how many applied, and the text telling the model about the rest ("" when
    every block applied and none was unreadable)."""

    applied: int
    blocks: int
    reflection: str

    @property
    def malformed(self) -> bool:
        return bool(self.reflection)


def blocks(text: str) -> tuple[list[Block], int]:
    """The answer's well-formed blocks in order, and how many opened a SEARCH that did not parse."""
    found = [Block(m.group(1).lstrip("./"), m.group(2), m.group(3)) for m in BLOCK.finditer(text)]
    return found, max(0, len(OPENING.findall(text)) - len(found))


def apply(
    text: str, edit: Callable[[str, str, str], str], write: Callable[[str, str], str], read: Callable[[str], str]
) -> Applied:
    """Apply the answer's blocks: `edit(path, old, new)` and `write(path, content)` return the tool's result,
    `read(path)` a file's text ("" when it does not exist). An empty SEARCH creates the file, or adds to its end."""
    found, unreadable = blocks(text)
    failed: list[str] = []
    for block in found:
        if not block.search.strip():
            current = read(block.path)
            result = (
                write(block.path, block.replace)
                if not current
                else edit(block.path, current.rstrip("\n"), current.rstrip("\n") + "\n" + block.replace.rstrip("\n"))
            )
        else:
            result = edit(block.path, block.search.rstrip("\n"), block.replace.rstrip("\n"))
        if result.startswith(FAILED):
            failed.append(AIDER_DIFF_BLOCK.format(path=block.path, search=block.search, replace=block.replace))
    failed += ["(a block whose markers did not parse: <<<<<<< SEARCH, =======, >>>>>>> REPLACE)"] * unreadable
    applied = len(found) - (len(failed) - unreadable)
    reflection = AIDER_DIFF_FAILED.format(failed="\n".join(failed), applied=applied) if failed else ""
    return Applied(applied, len(found) + unreadable, reflection)
