"""The model server a run or a check talks to: the configured one, proven reachable, or the embedded model's
server started for as long as it is needed. Its own module, light to import: `slmcode doctor` and `eval` need it
without the graph (importing the runner costs about 2 CPU-seconds)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from slmcode.settings import Settings

Event = dict[str, Any]


@contextmanager
def model_endpoint(settings: Settings, on_event: Callable[[Event], None] | None = None) -> Iterator[Settings]:
    """The settings with a base_url: as configured, or the embedded model's server for the run's length (its
    start, a few seconds to a minute, is announced through `on_event`: nothing else shows progress then)."""
    if settings.base_url:
        from slmcode.providers.endpoint import require_reachable

        require_reachable(settings.base_url, settings.api_key)  # nothing listening: one line with a hint, at once
        yield settings
        return
    from slmcode.providers.embedded import embedded_server

    name = Path(settings.model_path).name if settings.model_path else "SmolLM2-135M"
    if on_event is not None:
        on_event({"kind": "model_starting", "model": name})
    with embedded_server(settings) as server:
        if on_event is not None:
            on_event(
                {
                    "kind": "model_ready",
                    "model": name,
                    "base_url": server.base_url,
                    "seconds": round(server.start_seconds, 1),
                }
            )
        # One slot: parallel workers would only evict each other's cached prompt prefix. No retries: a request
        # that timed out keeps the only slot busy, so a retry just queues behind it (the demo's clarify call
        # took 3 x 120 s to fail on a loaded machine); the run fails at the first timeout, saying so.
        yield settings.model_copy(
            update={
                "base_url": server.base_url,
                "server_dialect": "llama-cpp-python",
                "max_parallel": 1,
                "request_retries": 0,
            }
        )


def fit_to_server(settings: Settings, waiting: Callable[[str], None] | None = None) -> tuple[Settings, Event]:
    """The settings sized to what the server will really keep, and the `window` event that says which window the
    run uses and why (slmcode.providers.server_window); `waiting` is told when the server is slow to say."""
    from slmcode.providers.server_window import choose_window

    context_limit, event = choose_window(settings, waiting)
    return settings.model_copy(update={"context_limit": context_limit}), event
