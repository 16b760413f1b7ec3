"""The SIMULATED model's mind: a competence a profile states (right less often on bigger tasks), and random
numbers common to the arms (the same seed meets the harness and the plain loop with the same luck at the same
decision)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from slmcode.errors import SlmcodeError
from slmcode.eval.sim.knowledge import Knowledge
from slmcode.eval.sim.mind import Mind
from slmcode.eval.sim.mutants import cache_dir, wrong_edits
from slmcode.eval.sim.profile import Profile, load_profile
from slmcode.eval.suite import load_suite, load_task
from tests.eval.test_sim import MODEL, attempt

DUNCE = Profile(name="dunce", model=MODEL, window_tokens=0, mind=Mind(skill=-20.0))
COIN = Profile(name="coin-old-str", model=MODEL, window_tokens=0, rates={"old_str_mismatch": 0.5})


@pytest.mark.slow
def test_the_same_seed_gives_both_arms_the_same_draws(on_path: None) -> None:
    for seed in (0, 1):
        _, harness = attempt("py-chunk", COIN, agent="harness", seed=seed)
        _, plain = attempt("py-chunk", COIN, agent="baseline", seed=seed)
        both = dict(harness.draws.log).keys() & dict(plain.draws.log).keys()
        assert "old_str_mismatch#1" in both
        assert all(dict(harness.draws.log)[k] == dict(plain.draws.log)[k] for k in both)
        # The first edit is recalled wrongly in both arms or in neither.
        first = [
            next("old_str_mismatch" in p.errors for p in sim.log if "old_str_mismatch#1" in p.drawn)
            for sim in (harness, plain)
        ]
        assert first[0] == first[1]


def test_a_profile_states_its_competence_and_bigger_tasks_are_harder(tmp_path: Path) -> None:
    assert load_profile("perfect").mind.p_right(hunks=4, files=3, changed_lines=60) > 0.9999
    seven = load_profile("7b").mind
    assert 0.5 < seven.p_right(1, 1, 2) < 0.95 and seven.p_right(3, 2, 30) < seven.p_right(1, 1, 2)
    assert load_profile("14b").mind.p_right(1, 1, 2) > seven.p_right(1, 1, 2)
    mine = tmp_path / "mine.yaml"
    mine.write_text("mind: {skill: 0.0, stuck_stay: 0.5, prefill_tokens_per_s: 100, decode_tokens_per_s: 10}\n")
    mind = load_profile(str(mine)).mind
    assert mind.p_right(1, 1, 0) == pytest.approx(0.5) and mind.seconds(1000, 20) == pytest.approx(12.0)
    for bad in ("mind: {skil: 1}", "mind: {stuck_stay: 1.5}", "mind: {skill: high}", "mind: [1]"):
        mine.write_text(bad + "\n")
        with pytest.raises(SlmcodeError) as raised:
            load_profile(str(mine))
        assert "\n" not in str(raised.value)


def test_a_cached_wrong_edit_parses_and_fails_a_hidden_test() -> None:
    task = next(t for t in load_suite() if t.id == "py-chunk")
    kept = wrong_edits(task)
    assert {"flip", "stub"} <= {m.kind for m in kept}
    flip = next(m for m in kept if m.kind == "flip")
    assert "FAILED tests/test_hidden.py" in flip.fails
    for path, text in flip.files.items():
        compile(text, path, "exec")  # it parses
        assert text != Knowledge(task).solution_text(path)  # and is not the reference
    assert oct(cache_dir().stat().st_mode & 0o777) == "0o700"
    assert [m.files for m in wrong_edits(task)] == [m.files for m in kept]  # read back from the cache


def test_a_changed_task_is_graded_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    shutil.copytree(next(t for t in load_suite() if t.id == "py-temperature").folder, tmp_path / "py-temperature")
    task = load_task(tmp_path / "py-temperature")
    assert {m.kind for m in wrong_edits(task)} >= {"constant", "stub"}
    # Tests a wrong constant now passes: the cached verdicts no longer hold, so none of those is kept.
    (task.repo / "tests" / "test_task.py").unlink()
    (task.hidden / "tests" / "test_hidden.py").write_text(
        "from convert import fahrenheit_to_celsius\n\n\ndef test_it_exists() -> None:\n"
        "    assert callable(fahrenheit_to_celsius)\n"
    )
    assert [m.kind for m in wrong_edits(task)] == ["stub"]
    assert len(list(cache_dir().glob("*.json"))) == 2


@pytest.mark.slow
def test_a_low_skill_model_writes_wrong_code_in_both_arms_where_perfect_passes(on_path: None) -> None:
    for agent in ("harness", "baseline"):
        wrong, sim = attempt("py-chunk", DUNCE, agent=agent, seed=0)
        assert sim.belief != "right" and not wrong.solved
        assert any(p.action in ("ws_edit", "ws_write") for p in sim.log) or sim.belief == "stub"
        right, perfect = attempt("py-chunk", load_profile("perfect"), agent=agent, seed=0)
        assert perfect.belief == "right" and right.solved


def test_every_competence_value_says_whether_it_is_fitted_and_to_which_row() -> None:
    # A figure is quoted only from a profile fitted to published rows: each `mind:` value names its source.
    from slmcode.eval.sim.profile import builtin_profiles

    for name in builtin_profiles():
        text = (Path(__file__).parents[2] / "slmcode" / "eval" / "sim" / "profiles" / f"{name}.yaml").read_text()
        mind = text.split("\nmind:\n", 1)[-1].split("\n# ", 1)[0] if "\nmind:\n" in text else ""
        values = (row for row in mind.splitlines() if row.startswith("  ") and not row.lstrip().startswith("#"))
        for line in (row for row in values if ":" in row):
            comment = line.split("#", 1)[1].strip() if "#" in line else ""
            # assumed, fitted to a leaderboard row, or a published measurement the comment cites (a server's speed)
            fitted = ("fitted: polyglot_leaderboard.yml, ", "fitted: little-coder docs/whitepaper.md, ", SWE_GYM)
            assert comment.startswith(("assumed", *fitted, "source: ")), (name, line)


SWE_GYM = "fitted: SWE-Gym Table 3, "  # bench/sim_fit_swegym.py: Pan et al., arXiv 2412.21139, zero-shot rows


def test_every_error_rate_says_whether_it_is_assumed_or_which_row_it_comes_from() -> None:
    # The slips too: each `rates:` value, on its own line, says assumed, or names the published row it was fitted
    # or converted to (a row and its column, not a paper's name alone).
    from slmcode.eval.sim.profile import ERRORS, builtin_profiles

    sources = ("assumed", SWE_GYM, "converted: polyglot_leaderboard.yml, ", "converted (above)", "source: ")
    for name in builtin_profiles():
        text = (Path(__file__).parents[2] / "slmcode" / "eval" / "sim" / "profiles" / f"{name}.yaml").read_text()
        rates = text.split("\nrates:\n", 1)[-1].split("\nmind:", 1)[0] if "\nrates:\n" in text else ""
        values = [row for row in rates.splitlines() if row.startswith("  ") and not row.lstrip().startswith("#")]
        assert {row.split(":", 1)[0].strip() for row in values} == set(load_profile(name).rates) <= set(ERRORS)
        for line in values:
            comment = line.split("#", 1)[1].strip() if "#" in line else ""
            assert comment.startswith(sources), (name, line)
            if comment.startswith("converted (above)"):  # the comment block above names the row
                assert "polyglot_leaderboard.yml, " in rates.split(line, 1)[0], (name, line)
            if comment.startswith(SWE_GYM):  # the row: the split, the size and the column
                assert "SWE-Bench" in comment and "zero-shot" in comment, (name, line)


def test_failing_output_turns_a_stronger_model_right_more_often_on_easier_tasks() -> None:
    from dataclasses import replace

    fitted = load_profile("32b").mind
    weaker = replace(fitted, skill=fitted.skill - 3)
    assert fitted.retry_gain is not None
    assert fitted.p_flip(1, 1, 10) > fitted.p_flip(1, 1, 80) > weaker.p_flip(1, 1, 80)
