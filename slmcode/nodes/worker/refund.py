"""Refund the iteration: a worker turn that ended in a recoverable provider error does not count against the
turn limit. A rate limit (429, once the client's own retries are spent) sends the branch back to the same step
with the same turn number after a pause (the server's Retry-After, else a doubling backoff), at most
MAX_REFUNDS times in a row; a context-length 400 is recovered inside the turn (worker.OVERFLOW_SHRINKS: the
request is compacted harder and sent again), so it never costs a turn either."""

from __future__ import annotations

from slmcode.errors import RateLimitedError

MAX_REFUNDS = 3  # in a row; then the error stops the run as any other, its checkpoint kept for resume
WAIT_CAP_SECONDS = 30.0


class Refund(Exception):
    """A model request failed in a way the next attempt may not: retry the turn, uncounted, after `wait`."""

    def __init__(self, reason: str, wait: float) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait = wait


def rate_limited(exc: RateLimitedError, refunds: int) -> Refund:
    """The refund for a 429: wait what the server asks (capped), else 1, 2, 4 ... seconds."""
    wait = exc.retry_after if exc.retry_after is not None else float(2**refunds)
    return Refund(f"rate limited ({exc.status_code})", min(max(wait, 0.0), WAIT_CAP_SECONDS))
