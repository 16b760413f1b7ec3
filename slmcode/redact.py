"""The one redactor for secrets at rest: a URL's password and the settings that hold keys.

Everything slmcode writes about a run (the trace's settings, .slmcode/runs/ID.json, messages that name a
URL) goes through here, so a key given as a flag or a password inside a base_url never reaches a file.
"""

from __future__ import annotations

import re
from typing import Any

MASK = "***"
# scheme://user:password@host -> scheme://user:***@host (the user name stays: it helps a reader, it opens nothing).
URL_PASSWORD = re.compile(r"(://[^:/@\s]+:)[^@\s/]+@")
SECRET_KEYS = frozenset({"api_key", "env"})  # env: an MCP server's variables, often its token
# Environment variables that hold a credential by their name (a value with a URL password is one too).
SECRET_NAME = re.compile(
    r"KEY|TOKEN|SECRET|PASSW|PWD$|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|_PAT$|JWT|DSN|WEBHOOK|DATABASE_URL|^AWS_"
    r"|^SLMCODE_|^GIT_"
)


def safe_url(text: str) -> str:
    """`text` with the password of every URL in it masked."""
    return URL_PASSWORD.sub(rf"\g<1>{MASK}@", text)


def has_password(text: str) -> bool:
    return bool(URL_PASSWORD.search(text))


def looks_secret(name: str, value: str) -> bool:
    """An environment variable that holds a credential, by its name or its value: never passed to a command."""
    return bool(SECRET_NAME.search(name.upper()) or has_password(value))


def redacted(value: Any) -> Any:
    """A settings mapping (or any nested value) as it may be stored: keys masked, URL passwords masked,
    at every depth (a role's base_url is as secret as the top-level one)."""
    if isinstance(value, dict):
        return {k: (MASK if k in SECRET_KEYS and v else redacted(v)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redacted(v) for v in value]
    if isinstance(value, str):
        return safe_url(value)
    return value


def without_secrets(overrides: dict[str, Any]) -> dict[str, Any]:
    """Per-run overrides as stored for `resume`: keys dropped (the config or the environment gives them
    again), URL passwords masked (resume then asks for the URL again)."""
    return redacted({k: v for k, v in overrides.items() if k not in SECRET_KEYS})


def masked_urls(value: Any) -> list[str]:
    """The URLs in a stored value whose password was masked: they cannot be used as they are."""
    if isinstance(value, dict):
        return [u for v in value.values() for u in masked_urls(v)]
    if isinstance(value, list | tuple):
        return [u for v in value for u in masked_urls(v)]
    return [value] if isinstance(value, str) and f":{MASK}@" in value else []
