from __future__ import annotations

from slmcode.budget.compute import compute_budget
from slmcode.budget.profiles import parse_size_billions, resolve_profile
from slmcode.config import ProfileOverride, Settings


def test_size_parsing() -> None:
    assert parse_size_billions("qwen2.5-coder:7b") == 7.0
    assert parse_size_billions("qwen2.5-coder:1.5b-instruct-q4_K_M") == 1.5
    assert parse_size_billions("SmolLM2-135M-Instruct") == 0.135
    assert parse_size_billions("llama3.2") is None


def test_resolution_order_exact_family_bucket_default() -> None:
    assert resolve_profile("embedded").context_source == "profile 'embedded'"
    codegemma = resolve_profile("codegemma:7b")
    assert (codegemma.context_limit, codegemma.context_source) == (8192, "family 'codegemma'")
    assert resolve_profile("llama3.2:3b").context_limit == 4096  # "llama3" must not speak for llama3.2
    assert resolve_profile("qwen2.5-coder:14b").context_limit == 16384
    unknown = resolve_profile("mystery-model")
    assert (unknown.context_limit, unknown.context_source) == (16384, "default")


def test_user_profiles_extend_and_override_the_table() -> None:
    settings = Settings(
        model_profiles={
            "codegemma": ProfileOverride(context_limit=4096),
            "house": ProfileOverride(context_limit=12000, max_turns=9),
        }
    )
    assert resolve_profile("codegemma:7b", settings).context_limit == 4096
    house = resolve_profile("house-coder:7b", settings)
    assert (house.context_limit, house.max_turns) == (12000, 9)


def test_the_window_is_capped_and_the_floor_holds() -> None:
    big = compute_budget(Settings(context_limit=131072), "worker", "qwen3:32b")
    assert big.window == 32768
    tiny = compute_budget(Settings(context_limit=1024), "memory", "x")
    assert tiny.available == 512


def test_reserves_shrink_to_half_of_a_small_window_so_prompts_still_fit() -> None:
    embedded = compute_budget(Settings(), "worker", "embedded")
    assert embedded.window == 2048
    assert embedded.reserve_system + embedded.reserve_tools + embedded.reserve_response <= 1024
    assert embedded.prompt_limit >= 1024


def test_role_shares_follow_the_setting() -> None:
    s = Settings()
    worker = compute_budget(s, "worker", "qwen2.5-coder:7b").available
    planner = compute_budget(s, "planner", "qwen2.5-coder:7b").available
    assert planner == int(worker * 0.7) or abs(planner - worker * 0.7) <= 1
