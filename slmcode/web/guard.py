"""Who may talk to the web view: the holder of the token printed at start, from a page this server served.

The server listens on loopback, but any web page the user opens can send requests to loopback, and a DNS
name can be pointed at 127.0.0.1 (DNS rebinding). So every request must carry the token (in the URL on the
first visit, then in a SameSite=Strict cookie), its Host must name this server, and a request that says
where it comes from (Origin) must come from this server. Forms that change something also carry the token
in a hidden field. Comparisons are constant-time so the token cannot be guessed byte by byte.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class Guard:
    token: str
    port: int
    hosts: tuple[str, ...] = field(default=())

    @property
    def cookie_name(self) -> str:
        # Cookies are shared across ports of one host: the port in the name keeps two servers apart.
        return f"slmcode_token_{self.port}"

    def allowed_hosts(self) -> tuple[str, ...]:
        return self.hosts or tuple(f"{name}:{self.port}" for name in LOOPBACK_NAMES)

    def host_ok(self, host: str | None) -> bool:
        return (host or "").lower() in self.allowed_hosts()

    def origin_ok(self, origin: str | None) -> bool:
        """No Origin (a plain navigation) is fine; a foreign one is not."""
        if origin is None:
            return True
        return origin.lower() in tuple(f"http://{h}" for h in self.allowed_hosts())

    def matches(self, candidate: str | None) -> bool:
        return candidate is not None and hmac.compare_digest(candidate.encode(), self.token.encode())

    def cookie_token(self, cookie_header: str | None) -> str | None:
        if not cookie_header:
            return None
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(cookie_header)
        except CookieError:
            return None
        morsel = jar.get(self.cookie_name)
        return morsel.value if morsel is not None else None

    def set_cookie(self) -> str:
        return f"{self.cookie_name}={self.token}; Path=/; HttpOnly; SameSite=Strict"
