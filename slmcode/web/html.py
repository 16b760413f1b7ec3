"""The page frame and the escaping every page uses.

Runs, task titles, file names and model text are hostile: every value reaches the page through `esc` (text
and attribute values alike) and every URL part through `part`. Nothing from the data ever becomes script:
the only script is /static/live.js, and the Content-Security-Policy forbids inline script and handlers.
"""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

NAV = (("/", "Runs"), ("/chat", "Chat sessions"), ("/patches", "Pending patches"), ("/memory", "Memory"))


def esc(value: Any) -> str:
    return escape("" if value is None else str(value), quote=True)


def part(value: Any) -> str:
    """One URL path segment or query value, percent-encoded (then still escaped where it lands in HTML)."""
    return quote(str(value), safe="")


def page(title: str, body: str, *, active: str = "", live: bool = False) -> str:
    nav = "".join(
        f'<a href="{href}"{" aria-current=page" if href == active else ""}>{esc(label)}</a>' for href, label in NAV
    )
    script = '<script src="/static/live.js" defer></script>' if live else ""
    return (
        "<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f'<title>{esc(title)} · slmcode</title><link rel=stylesheet href="/static/style.css">{script}</head>'
        f'<body><header><a class=brand href="/">slmcode</a><nav>{nav}</nav></header>'
        f"<main id=main>{body}</main></body></html>\n"
    )


def table(headers: list[str], rows: list[list[str]], *, cls: str = "", body_id: str = "") -> str:
    """A table; `rows` hold cells that are already HTML (escaped by the caller)."""
    head = "".join(f"<th scope=col>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    ident = f' id="{esc(body_id)}"' if body_id else ""
    return (
        f'<div class=scroll><table class="{esc(cls)}"><thead><tr>{head}</tr></thead>'
        f"<tbody{ident}>{body}</tbody></table></div>"
    )


def diff_block(diff: str) -> str:
    """A unified diff, each line marked added, removed or hunk header for the stylesheet."""
    if not diff:
        return "<p class=muted>(no change)</p>"
    lines = []
    for line in diff.splitlines():
        kind = (
            "add"
            if line.startswith("+") and not line.startswith("+++")
            else "del"
            if line.startswith("-") and not line.startswith("---")
            else "hunk"
            if line.startswith("@@")
            else "ctx"
        )
        lines.append(f'<span class="{kind}">{esc(line)}</span>')
    return "<pre class=diff tabindex=0>" + "".join(lines) + "</pre>"  # each line a block: no newline between


def form_button(
    action: str, label: str, token: str, fields: dict[str, str], *, danger: bool = False, what: str = ""
) -> str:
    """A POST form with one button; the token rides along as a hidden field. `what`: the full name a screen
    reader says, when the visible label alone ("Delete") is the same on every row."""
    hidden = "".join(f'<input type=hidden name="{esc(k)}" value="{esc(v)}">' for k, v in fields.items())
    cls = (" class=danger" if danger else "") + (f' aria-label="{esc(what)}"' if what else "")
    return (
        f'<form method=post action="{esc(action)}" class=inline>'
        f'<input type=hidden name=token value="{esc(token)}">{hidden}'
        f"<button type=submit{cls}>{esc(label)}</button></form>"
    )
