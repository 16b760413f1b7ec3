"""A small, strict reading of a POSIX command line: words, quotes, chains, pipes and redirections.

We never hand a command to a shell. This parser reads the subset a coding agent needs (quoting, `;` `&&`
`||` `|` newlines, `2>&1`, `> /dev/null`, `< file`) into a structure the whitelist can check part by part,
and refuses what it does not model: substitution and expansion (`$`, backticks), subshells, background jobs.
"""

from __future__ import annotations

import glob as globlib
from dataclasses import dataclass, field

CHAIN_OPS = (";", "&&", "||", "\n")
# Longest first, so "&&" is not read as "&" twice.
OPERATORS = ("&&", "||", ">>", "&>", ">&", ";", "|", "\n", ">", "<", "&", "(", ")")


class ParseRefusal(Exception):
    """The command uses something the harness does not run; the message says what."""


@dataclass
class Word:
    text: str
    pattern: str  # the glob pattern, quoted parts escaped
    globbed: bool  # has an unquoted * ? or [


@dataclass
class Redirect:
    fd: int  # 0 stdin, 1 stdout, 2 stderr, -1 both
    op: str  # "<", ">", ">>", ">&"
    target: str


@dataclass
class Command:
    words: list[Word] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)

    @property
    def argv(self) -> list[str]:
        return [w.text for w in self.words]


@dataclass
class Step:
    """One pipeline and the operator that decides whether it runs (None for the first)."""

    joiner: str | None
    pipeline: list[Command]


def _read_word(line: str, i: int) -> tuple[Word, int]:
    text, pattern, globbed = [], [], False
    while i < len(line):
        ch = line[i]
        if ch in " \t" or any(line.startswith(op, i) for op in OPERATORS):
            break
        if ch == "'":
            end = line.find("'", i + 1)
            if end == -1:
                raise ParseRefusal("unclosed single quote")
            text.append(line[i + 1 : end])
            pattern.append(globlib.escape(line[i + 1 : end]))
            i = end + 1
        elif ch == '"':
            i, part = _read_double_quoted(line, i + 1)
            text.append(part)
            pattern.append(globlib.escape(part))
        elif ch == "\\":
            if i + 1 < len(line) and line[i + 1] != "\n":
                text.append(line[i + 1])
                pattern.append(globlib.escape(line[i + 1]))
            i += 2
        elif ch in "$`":
            raise ParseRefusal(f"substitution and variables ({ch}) are not allowed")
        else:
            globbed = globbed or ch in "*?["
            text.append(ch)
            pattern.append(ch)
            i += 1
    return Word("".join(text), "".join(pattern), globbed), i


def _read_double_quoted(line: str, i: int) -> tuple[int, str]:
    part: list[str] = []
    while i < len(line):
        ch = line[i]
        if ch == '"':
            return i + 1, "".join(part)
        if ch in "$`":
            raise ParseRefusal(f"substitution and variables ({ch}) are not allowed, even in double quotes")
        if ch == "\\" and i + 1 < len(line) and line[i + 1] in '"\\$`\n':
            part.append(line[i + 1])
            i += 2
            continue
        part.append(ch)
        i += 1
    raise ParseRefusal("unclosed double quote")


def tokenize(line: str) -> list[Word | str]:
    """Words and operator strings, in order."""
    tokens: list[Word | str] = []
    i = 0
    while i < len(line):
        if line[i] in " \t":
            i += 1
            continue
        if line[i] == "#" and (i == 0 or line[i - 1] in " \t\n"):
            end = line.find("\n", i)  # a comment runs to the end of the line
            i = len(line) if end == -1 else end
            continue
        op = next((op for op in OPERATORS if line.startswith(op, i)), None)
        if op is not None:
            tokens.append(op)
            i += len(op)
            continue
        word, i = _read_word(line, i)
        tokens.append(word)
    return tokens


def _redirect(tokens: list[Word | str], k: int, command: Command) -> int:
    """Read one redirection starting at tokens[k]; return the index after it."""
    op = tokens[k]
    assert isinstance(op, str)
    fd = {"<": 0, "&>": -1}.get(op, 1)
    last = command.words[-1] if command.words else None
    # "2>" arrives as the word "2" glued to ">"; the parser cannot see the gap, so "echo 2 > f" reads the same.
    if last is not None and last.text in {"0", "1", "2"} and not last.globbed and op in {">", ">>", ">&", "<"}:
        fd = int(command.words.pop().text)
    if k + 1 >= len(tokens) or not isinstance(tokens[k + 1], Word):
        raise ParseRefusal(f"redirection {op} without a target")
    target = tokens[k + 1]
    assert isinstance(target, Word)
    command.redirects.append(Redirect(fd=fd, op=">" if op == "&>" else op, target=target.text))
    return k + 2


def parse(line: str) -> list[Step]:
    """The chain of pipelines in `line`; a ParseRefusal names anything it does not allow."""
    tokens = tokenize(line)
    steps: list[Step] = []
    joiner: str | None = None
    pipeline: list[Command] = [Command()]
    k = 0
    while k < len(tokens):
        token = tokens[k]
        if isinstance(token, Word):
            pipeline[-1].words.append(token)
            k += 1
        elif token in {"<", ">", ">>", ">&", "&>"}:
            k = _redirect(tokens, k, pipeline[-1])
        elif token == "|":
            if not pipeline[-1].words:
                raise ParseRefusal("a pipe needs a command on each side")
            pipeline.append(Command())
            k += 1
        elif token in CHAIN_OPS:
            if pipeline[-1].words:
                steps.append(Step(joiner, pipeline))
                joiner, pipeline = token, [Command()]
            elif token in {"&&", "||"} or len(pipeline) > 1:
                raise ParseRefusal(f"{token} needs a command on each side")
            k += 1
        elif token == "&":
            raise ParseRefusal("background jobs (&) are not allowed")
        else:
            raise ParseRefusal(f"subshells and grouping ({token}) are not allowed")
    if pipeline[-1].words:
        steps.append(Step(joiner, pipeline))
    elif len(pipeline) > 1 or joiner in {"&&", "||"}:
        raise ParseRefusal("the command ends with an operator")
    return steps
