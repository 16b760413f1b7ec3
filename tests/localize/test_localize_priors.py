"""Localisation's priors: tests rank below source, a chosen file offers its header, references link spans, long
spans are cut around what matched, copies of a file are shown once, and "fix" or "#3116" in a request point nowhere."""

from __future__ import annotations

from pathlib import Path

from slmcode.budget.tokens import default_counter
from slmcode.localize.candidates import rank_candidates
from slmcode.localize.line_window import Window
from slmcode.localize.sources import SourceFile
from slmcode.packs.derived import derived_files
from slmcode.packs.selection import select_excerpts
from slmcode.repomap.model import Symbol


def source(path: str, lines: list[str], definitions: list[tuple[str, int, int]]) -> SourceFile:
    symbols = tuple(Symbol(path, name, "function", start, end, lines[start - 1]) for name, start, end in definitions)
    return SourceFile(path, tuple(lines), symbols)


def parser_pair() -> list[SourceFile]:
    code = ["import re", "", "LIMIT = 10", "", "def parse_header(text):", "    return text.split(':')", ""]
    test = [
        "from shop import parse_header",
        "",
        "def test_parse_header_splits():",
        "    assert parse_header('a:b') == ['a', 'b']",
        "",
    ]
    return [
        source("shop/parse.py", code, [("parse_header", 5, 6)]),
        source("tests/test_parse.py", test, [("test_parse_header_splits", 3, 4)]),
    ]


def test_a_test_file_ranks_below_the_source_unless_the_task_is_about_tests() -> None:
    sources = parser_pair()
    fix = rank_candidates(sources, "parse_header splits headers wrong")
    assert fix[0].path == "shop/parse.py"
    best_test = next(c for c in fix if c.path.startswith("tests/"))
    assert best_test.score < fix[0].score * 0.5
    asked = rank_candidates(sources, "add a test for parse_header splits")
    by_path = {c.path: c.score for c in reversed(asked)}  # the best score per file
    assert by_path["tests/test_parse.py"] > best_test.score


def test_documentation_ranks_below_the_code_it_describes_unless_the_task_is_about_docs() -> None:
    """A docs/conf.py spells "version string" as often as the code that parses one: a fix ranks the code first."""
    code = [
        "import re",
        "",
        "def parse_version(text):",
        '    """The number in a version string."""',
        "    match = re.match(r'v?(\\d+)', text)",
        "    return match.group(1)",
        "",
    ]
    conf = [
        "# The short X.Y version string",
        "version = '1.0'",
        "# The full version string, including tags",
        "release = version",
        "",
    ]
    sources = [source("shop/release.py", code, [("parse_version", 3, 6)]), source("docs/conf.py", conf, [])]
    assert rank_candidates(sources, "wrong version string parsed")[0].path == "shop/release.py"
    assert rank_candidates(sources, "docs: wrong version string shown")[0].path == "docs/conf.py"


def test_a_file_with_a_hit_offers_its_header_of_imports_and_constants() -> None:
    sources = parser_pair()[:1]
    candidates = rank_candidates(sources, "parse_header splits headers wrong")
    assert any(c.window == Window(1, 4) for c in candidates)  # the lines above the first definition
    shown = select_excerpts(sources, candidates, budget=300, counter=default_counter())
    assert any(e.start == 1 for e in shown) and any(e.start <= 5 <= e.end for e in shown)


def test_the_definition_a_matching_span_calls_comes_next_without_a_shared_word() -> None:
    caller = ["def handle_request(request):", "    return normalise_cookie(request.cookie)", ""]
    body = [f"    value = value.replace('{n}', '')" for n in range(6)]
    callee = [
        "def unrelated_helper(value):",
        *body,
        "    return value",
        "",
        "def normalise_cookie(value):",
        *body,
        "    return value.strip().lower()",
        "",
    ]
    sources = [
        source("web/handler.py", caller, [("handle_request", 1, 2)]),
        source("web/util.py", callee, [("unrelated_helper", 1, 8), ("normalise_cookie", 10, 17)]),
    ]
    candidates = rank_candidates(sources, "handle request drops the session")
    order = [(c.path, c.window.start) for c in candidates]
    assert order[0] == ("web/handler.py", 1)
    assert order[1] == ("web/util.py", 10)  # no shared word, reached through the call


def test_the_code_that_calls_a_matching_definition_comes_next_without_a_shared_word() -> None:
    body = [f"    value = value.replace('{n}', '')" for n in range(6)]
    util = ["def squash_value(value):", *body, "    # trailing spaces are kept on purpose", "    return value", ""]
    views = [
        "def unrelated_view(request):",
        *body,
        "    return request",
        "",
        "def handle_request(request):",
        *body,
        "    return squash_value(request)",
        "",
    ]
    sources = [
        source("web/util.py", util, [("squash_value", 1, 9)]),
        source("web/views.py", views, [("unrelated_view", 1, 8), ("handle_request", 10, 17)]),
    ]
    candidates = rank_candidates(sources, "trailing spaces kept in the cookie")
    order = [(c.path, c.window.start) for c in candidates]
    assert order[0] == ("web/util.py", 1)
    assert order[1] == ("web/views.py", 10)  # the caller, by its call: no word of the request in that file


def test_a_long_span_that_does_not_fit_shows_the_lines_that_matched() -> None:
    lines = [f"    step_{n} = compute(step_{n - 1})" for n in range(1, 41)]
    lines[0] = "def pipeline(data):"
    lines[33] = "    overflow_guard = clamp_overflow(step_33)"
    sources = [source("core/pipeline.py", lines, [("pipeline", 1, 40)])]
    candidates = rank_candidates(sources, "clamp overflow guard is wrong")
    shown = select_excerpts(sources, candidates, budget=120, counter=default_counter())
    assert any(e.start <= 34 <= e.end for e in shown)
    assert sum(e.tokens for e in shown) <= 120


def test_copies_and_marked_files_are_left_out_and_their_source_kept(tmp_path: Path) -> None:
    (tmp_path / ".gitattributes").write_text("api/schema_gen.py linguist-generated=true\n*.snap -diff\n")
    body = ["def render(node):", "    return str(node)", "def parse(text):", "    return text", "def emit(x):", "    x"]
    defs = [("render", 1, 2), ("parse", 3, 4), ("emit", 5, 6)]
    sources = [
        source("src/render.py", body, defs),
        source("dist/render.py", body, defs),  # byte-identical build output
        source("deno/lib/render.py", [*body, "# rewritten imports"], defs),  # a build's twin
        source("cmd/a/main.py", ["def main():", "    a()"], [("main", 1, 2)]),
        source("cmd/b/main.py", ["def main():", "    b()"], [("main", 1, 2)]),  # same name, not a copy
        source("api/schema_gen.py", ["SCHEMA = {}"], []),
        source("api/views.py", ["def view():", "    return render(1)"], [("view", 1, 2)]),
    ]
    assert derived_files(tmp_path, sources) == {"dist/render.py", "deno/lib/render.py", "api/schema_gen.py"}


def test_the_words_asking_for_a_fix_do_not_pull_in_code_that_mentions_fixes() -> None:
    client = [
        "def send_request(url, timeout):",
        "    conn = open_connection(url)",
        "    conn.settimeout(timeout)",
        "    return conn.read()",
        "",
    ]
    config = ["import os", "", "def default_timeout():", "    return float(os.environ.get('TIMEOUT', 5))", ""]
    fixes = [
        "def apply_fixes(items):",
        "    # fix for #3116: fixes the bug in the fixed list",
        "    fixed = [fix(i) for i in items]",
        "    return fixed",
        "",
    ]
    sources = [
        source("net/client.py", client, [("send_request", 1, 4)]),
        source("net/config.py", config, [("default_timeout", 3, 4)]),
        source("data/fixes.py", fixes, [("apply_fixes", 1, 4)]),
    ]
    candidates = rank_candidates(sources, "Fix send request timeout (#3116)")
    files = list(dict.fromkeys(c.path for c in candidates))
    assert files == ["net/client.py", "net/config.py"]  # the file full of "fix" and "#3116" is not offered


def test_a_long_spans_first_window_shows_more_of_what_follows_the_matched_line() -> None:
    lines = [f"    step_{n} = compute(step_{n - 1})" for n in range(1, 41)]
    lines[0] = "def pipeline(data):"
    lines[19] = "    overflow_guard = clamp_overflow(step_19)"
    sources = [source("core/pipeline.py", lines, [("pipeline", 1, 40)])]
    first = rank_candidates(sources, "clamp overflow guard is wrong")[0].window
    assert first.start <= 20 <= first.end and first.size < 40  # a core of the span, around the line that matched
    assert first.end - 20 > 20 - first.start  # the code it leads into, more than the code before it


def test_a_place_sharing_the_best_matchs_rare_names_ranks_before_another_files_weak_match() -> None:
    # The request names the first place a fix touches; the second place shares that place's own names
    # (`fieldset_names`, `unknown_fieldset`), not the request's words.
    padding = [f"    step_{n} = {n}" for n in range(4)]
    schema = [
        "def load_partial(payload, partial):",
        "    fieldset_names = sorted(payload)",
        "    unknown_fieldset = [n for n in fieldset_names if n not in partial]",
        *padding,
        "    return unknown_fieldset",
        "",
        "def dump(payload):",
        *padding,
        "    return dict(payload)",
        "",
        "def check_fields(payload):",
        "    fieldset_names = list(payload)",
        *padding,
        "    unknown_fieldset = fieldset_names[1:]",
        "    return unknown_fieldset",
        "",
    ]
    other = ["def render(value):", *padding, "    # a partial render", "    return str(value)", ""]
    sources = [
        source("shop/schema.py", schema, [("load_partial", 1, 8), ("dump", 10, 15), ("check_fields", 17, 24)]),
        source("shop/render.py", other, [("render", 1, 7)]),
    ]
    candidates = rank_candidates(sources, "load_partial ignores partial payload")
    order = [(c.path, c.window.start) for c in candidates]
    assert order[0] == ("shop/schema.py", 1)  # the place the request names stays first
    assert order.index(("shop/schema.py", 17)) < order.index(("shop/render.py", 1))
    assert order.index(("shop/schema.py", 17)) < order.index(("shop/schema.py", 10))  # no shared names: after
