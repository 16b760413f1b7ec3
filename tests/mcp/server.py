"""A small MCP server for the tests (FastMCP from the mcp SDK): `python server.py` serves stdio,
`python server.py --http PORT` serves streamable HTTP on 127.0.0.1:PORT."""

from __future__ import annotations

import sys

from mcp.server.fastmcp import FastMCP

server = FastMCP("calc", log_level="WARNING")


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def shout(text: str) -> str:
    """The text in capitals."""
    return text.upper()


@server.tool()
def fail(reason: str) -> str:
    """Always fails with the given reason."""
    raise ValueError(reason)


@server.tool()
def big(lines: int) -> str:
    """Many numbered lines of output."""
    return "\n".join(f"line {i} of a long report from the server" for i in range(lines))


@server.tool()
def bump() -> str:
    """Count a call in bumps.txt (in the folder the server runs in) and return the count."""
    with open("bumps.txt", "a", encoding="utf-8") as tally:
        tally.write("bump\n")
    with open("bumps.txt", encoding="utf-8") as tally:
        return str(len(tally.readlines()))


@server.tool()
def wait_for(gate: str) -> str:
    """Wait until the file `gate` exists in the folder the server runs in (a test's gate), at most 120 s."""
    import os
    import time

    with open(f"{gate}.waiting", "w", encoding="utf-8"):  # so a test knows the call has begun
        pass
    deadline = time.monotonic() + 120
    while not os.path.exists(gate) and time.monotonic() < deadline:
        time.sleep(0.05)
    return "released" if os.path.exists(gate) else "timed out"


@server.tool()
def echo_env(name: str) -> str:
    """An environment variable as the server sees it."""
    import os

    return os.environ.get(name, "(unset)")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--http":
        server.settings.host = "127.0.0.1"
        server.settings.port = int(sys.argv[2])
        server.run(transport="streamable-http")
    else:
        server.run()
