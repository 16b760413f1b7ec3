"""How a worker request's room is shared: the opening pack, the conversation, and one tool result's allowance.

A worker request carries the tool schemas, the opening pack (system and task message) and the conversation. The
messages get the prompt limit less what the schemas really cost: the room. The pack takes at most PACK_SHARE of
it (on a tiny window up to context_min_pack_tokens, so the task still fits); the rest is the conversation's. The
pre-model hook elides old tool results once the view passes the trigger and keeps the last `keep` whole, so for
elision to break the server's KV-cache prefix rarely, the kept results and several new rounds must fit between
the pack and the trigger. One result may therefore take at most (trigger - pack) / (keep + BATCH_ROUNDS) tokens
inline; a bigger output is offloaded to the scratch folder with a preview (a read is cut with the line to
continue from). Big windows hit the settings' own cap first.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from slmcode.budget.compute import Budget, compute_budget
from slmcode.budget.profiles import ModelProfile
from slmcode.budget.settings import BudgetSettings
from slmcode.budget.tokens import count_tokens

# After a drop the view sits at this share of the room: many rounds fit before the next drop.
DROP_TO_PERCENT = 50
# The newest tool results stay whole while together they fit this share of the room (at least one, at most
# `keep`): a fixed count of big results would fill the room on a small window and force a jump every round.
KEEP_SHARE_PERCENT = 20
# A jump should open at least this share of the room below the trigger, so several rounds fit before the next.
BATCH_HEADROOM_PERCENT = 15


@dataclass(frozen=True)
class Limits:
    room: int  # tokens the request's messages may take
    trigger: int
    keep: int  # the most tool results kept whole
    keep_share_percent: int = KEEP_SHARE_PERCENT  # of the room, for the kept results (100: always `keep`)

    @property
    def keep_room(self) -> int:
        return self.room * self.keep_share_percent // 100

    @property
    def drop_target(self) -> int:
        return self.room * DROP_TO_PERCENT // 100

    @property
    def settle(self) -> int:
        """A jump that leaves the view above this opens too little headroom: it drops old rounds too."""
        return self.trigger - self.room * BATCH_HEADROOM_PERCENT // 100


def message_room(settings: BudgetSettings, window: int) -> int:
    """The tokens the messages of a request may take on a model with this context window: the window less the
    response and tool-schema reserves, as packs.budget computes them."""
    budget = compute_budget(settings, "worker", profile=ModelProfile(settings.model, window, 1, "window", "window"))
    return max(1, budget.prompt_limit - budget.reserve_tools)


def limits_for(
    settings: BudgetSettings, window: int | None = None, keep: int | None = None, room: int | None = None
) -> Limits:
    """The limits on a model with a `window`-token context, or for messages that may take `room` tokens."""
    if room is None:
        if window is None:
            raise ValueError("limits_for needs the model's window or the messages' room")
        room = message_room(settings, window)
    trigger = int(room * settings.react_compact_at_percent / 100)
    return Limits(room=room, trigger=trigger, keep=keep or settings.react_keep_tool_results)


TOOL_PREAMBLE_TOKENS = 120  # what a chat template wraps around the tool schemas (chatml-function-calling)
PACK_SHARE = 0.3  # of the room: what the opening pack may take at most
SMALL_WINDOW_PACK_SHARE = 0.75  # on a tiny window the pack may take up to min_pack tokens, but not all the room
BATCH_ROUNDS = 5  # rounds that fit on top of the kept results before the next elision slide
BYTES_PER_TOKEN = 3  # code and logs run 3-4 bytes per cl100k token: 3 errs towards a smaller result
MIN_RESULT_BYTES = 1024  # below this a read shows too little to be worth a call


@dataclass(frozen=True)
class WorkerRoom:
    room: int  # tokens the request's messages may take
    pack: int  # the most the opening pack may take
    result_bytes: int  # the most one tool result keeps inline


def schema_tokens(specs: Sequence[Mapping[str, Any]]) -> int:
    """Tokens the tool schemas add to every request, plus the chat template's tool preamble. `specs` are the
    tools as a request's `tools` entries (plain dicts: tools/schemas.py, or tools/toolset.openai_spec), so this
    layer needs no LangChain. A tool set is counted once per process: every worker step and tools step asks again
    for the same few sets."""
    schemas = json.dumps(list(specs), sort_keys=True)
    if schemas not in _SCHEMA_TOKENS:
        _SCHEMA_TOKENS[schemas] = count_tokens(schemas) + TOOL_PREAMBLE_TOKENS
    return _SCHEMA_TOKENS[schemas]


_SCHEMA_TOKENS: dict[str, int] = {}


def worker_room(settings: BudgetSettings, budget: Budget, tools_tokens: int, keep: int | None = None) -> WorkerRoom:
    """The split for a worker role's requests on `budget`'s model, with tool schemas costing `tools_tokens`."""
    room = max(1, budget.prompt_limit - tools_tokens)
    floor = min(settings.context_min_pack_tokens, int(room * SMALL_WINDOW_PACK_SHARE))
    pack = min(budget.available, max(int(room * PACK_SHARE), floor))
    limits = limits_for(settings, keep=keep, room=room)
    share = max(0, limits.trigger - pack) // (limits.keep + BATCH_ROUNDS) * BYTES_PER_TOKEN
    return WorkerRoom(room, pack, min(settings.tool_output_inline_bytes, max(MIN_RESULT_BYTES, share)))
