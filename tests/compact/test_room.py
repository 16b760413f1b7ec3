from slmcode.budget.compute import compute_budget
from slmcode.budget.profiles import ModelProfile
from slmcode.budget.room import MIN_RESULT_BYTES, PACK_SHARE, worker_room
from slmcode.config import Settings

SETTINGS = Settings(model="test-model")
TOOLS = 1100  # tokens of the worker's tool schemas, about what the real ones cost


def room_on(window: int, **overrides: object):  # type: ignore[no-untyped-def]
    settings = SETTINGS.model_copy(update=overrides)
    budget = compute_budget(settings, "worker", profile=ModelProfile("m", window, 1, "window", "window"))
    return worker_room(settings, budget, TOOLS)


def test_on_8k_the_pack_leaves_the_conversation_room_for_the_kept_results_and_a_batch_of_rounds() -> None:
    split = room_on(8192)
    assert split.room == 6144 - TOOLS
    assert split.pack == int(split.room * PACK_SHARE)
    # the five kept results (at 3 bytes a token, plus ~60 tokens for each call) fit between the pack and the trigger
    trigger = split.room * SETTINGS.react_compact_at_percent / 100
    assert split.pack + 5 * (split.result_bytes / 3 + 60) <= trigger
    assert MIN_RESULT_BYTES <= split.result_bytes <= SETTINGS.tool_output_inline_bytes / 4


def test_on_a_big_window_one_result_gets_the_configured_inline_limit() -> None:
    assert room_on(131072, context_window_cap=131072).result_bytes == SETTINGS.tool_output_inline_bytes
    assert room_on(131072, context_window_cap=131072, tool_output_inline_bytes=9000).result_bytes == 9000


def test_on_a_tiny_window_the_pack_still_gets_room_for_the_task() -> None:
    split = room_on(2048, context_reserve_response_tokens=0)
    assert split.pack >= min(SETTINGS.context_min_pack_tokens, int(split.room * 0.75))
    assert split.result_bytes == MIN_RESULT_BYTES
