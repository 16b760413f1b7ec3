"""The errors a user can cause. The CLI catches SlmcodeError at its edge and prints one line.

Errors a model causes never become exceptions: they go back to the model as messages.
"""

from __future__ import annotations

import errno


class SlmcodeError(Exception):
    """Base of every error reported to the user as one line with exit code 2."""

    exit_code = 2


class ConfigError(SlmcodeError):
    """A settings file, environment variable or flag is malformed."""


class EndpointError(SlmcodeError):
    """The model server cannot be reached or answered something unusable."""


class ServerUnreachableError(EndpointError):
    """The model server could not be reached, or did not answer within request_timeout (`timed_out`), after the
    client's own retries. Raised by providers/ in place of the HTTP client's error; `detail`: the client's words."""

    def __init__(self, message: str, *, detail: str, timed_out: bool = False) -> None:
        super().__init__(message)
        self.detail = detail
        self.timed_out = timed_out


class ServerStatusError(EndpointError):
    """The model server answered a request with an error status (after the client's retries for 5xx).
    `detail`: the server's own message."""

    def __init__(self, message: str, *, status_code: int, detail: str) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.detail = detail


class ServerRefusedError(ServerStatusError):
    """A 400: the server will not take this request as it is (too long for its window, a feature it lacks)."""

    @property
    def too_long(self) -> bool:
        """The server counts with its own tokenizer; this says the request is over its window."""
        text = self.detail.lower()
        return "context" in text or "too long" in text


class RateLimitedError(ServerStatusError):
    """A 429 after the client's retries. `retry_after`: the seconds the server asked for, when it said."""

    def __init__(self, message: str, *, status_code: int, detail: str, retry_after: float | None) -> None:
        super().__init__(message, status_code=status_code, detail=detail)
        self.retry_after = retry_after


class WorkspaceError(SlmcodeError):
    """The workspace folder is missing, unreadable or not what was expected."""


class RunNotFoundError(SlmcodeError):
    """A run id or thread id that no checkpoint or trace knows."""


class AmbiguousRunError(RunNotFoundError):
    """A run id prefix that more than one run starts with: the user must say which."""


class RunFinishedError(SlmcodeError):
    """`resume` of a run that already ended (done, or failed after its graph ended): nothing is left to run."""


class CheckpointError(SlmcodeError):
    """The checkpoint store cannot be opened: a missing extra, an unreachable database, a bad URL."""


class GitRunError(SlmcodeError):
    """A git-native run's step cannot be done: not a repository, a dirty tree, an unknown run or task."""


class PatchError(SlmcodeError):
    """A staged patch cannot be applied or rejected (missing, stale)."""


class BlockError(SlmcodeError):
    """A YAML building block is malformed."""


class MemoryLockError(SlmcodeError):
    """Another run held the workspace's memory lock for longer than the timeout."""


class RepoMapError(SlmcodeError):
    """The repo map could not be built at all (workspace unreadable, cache broken); callers go on without it."""


class WorkspaceBusyError(SlmcodeError):
    """Another live run holds the workspace: one writer per workspace."""


class TaskError(SlmcodeError, ValueError):
    """The task itself is unusable (empty); a ValueError too, for API callers."""


class RequestTooLargeError(SlmcodeError):
    """A request over the model's window reached the point of sending: a defect of the harness's budget,
    stopped before the server sees it (the run keeps its checkpoint)."""


class WindowTooSmallError(SlmcodeError):
    """The model server keeps fewer tokens than a role's fixed prompt needs: no request of that role could be sent."""


class PlanEditError(SlmcodeError, ValueError):
    """An edit of a plan waiting for approval is unusable (unknown task id, empty title, dependency cycle), or
    the run is not waiting for one; a ValueError too, for API callers."""


def not_utf8(path: object, exc: UnicodeDecodeError) -> str:
    """A text file of the user's that is not UTF-8, as one line naming the file, the line and the byte."""
    line = exc.object[: exc.start].count(b"\n") + 1
    return f"{path}: line {line}: byte 0x{exc.object[exc.start]:02x} is not UTF-8 (save the file as UTF-8)"


def os_error_line(exc: OSError, where: object = None) -> str:
    """An OSError as one line a user can act on: what failed, on which path (`where` when the error names none),
    in words for the two a user meets most, a read-only workspace and a full disk."""
    what = exc.strerror or str(exc) or type(exc).__name__
    path = exc.filename or where
    if exc.errno == errno.EROFS:
        return read_only_line(path, what)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return disk_full_line(path, what)
    return f"{path}: {what}" if path else what


def read_only_line(path: object, what: str = "Read-only file system") -> str:
    return f"the workspace is read-only ({what}): slmcode cannot write its state at {path}"


def disk_full_line(path: object, what: str = "No space left on device") -> str:
    return f"the disk is full ({what}): slmcode cannot write at {path}"
