"""The stylesheet and the one script, served from /static/. Hand-written: no build step, no CDN.

The script only follows a live run: it opens the page's server-sent event stream and puts each fragment the
server sent (already escaped there) in its place. It reads no data from the page other than the stream URL.
"""

from __future__ import annotations

STYLE = """
:root { --fg: #1b1f24; --muted: #59636e; --bg: #fff; --line: #d1d9e0; --accent: #0550ae; --ok: #116329;
        --bad: #a40e26; --warn: #7d4e00; --add: #dafbe1; --del: #ffebe9; --hunk: #ddf4ff; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .6rem 1rem;
         border-bottom: 1px solid var(--line); background: #f6f8fa; }
header nav { display: flex; flex-wrap: wrap; gap: 1rem; }
.brand { font-weight: 700; color: var(--fg); text-decoration: none; }
a { color: var(--accent); }
a[aria-current=page] { font-weight: 700; }
a:focus-visible, button:focus-visible, pre:focus-visible, summary:focus-visible {
  outline: 3px solid #fb8500; outline-offset: 2px; }
main { padding: 1rem; max-width: 1240px; }
h1 { font-size: 1.35rem; margin: .2rem 0 .6rem; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 1.2rem 0 .4rem; }
.muted { color: var(--muted); }
.messages { list-style: none; padding-left: 0; } .msg { margin: .4rem 0; }
.msg.elided pre, .msg.dropped pre { opacity: .55; border-left: 4px solid #b08800; }
.mark { font-size: 13px; color: #7a5d00; margin-left: .4rem; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .3rem .5rem; border-bottom: 1px solid var(--line); }
td { overflow-wrap: anywhere; }
th { background: #f6f8fa; font-weight: 600; }
.status { font-weight: 600; white-space: nowrap; }
.s-done, .s-PASSED, .s-passed { color: var(--ok); }
.s-failed, .s-FAILED, .s-rejected { color: var(--bad); }
.s-running, .s-review, .s-UNVERIFIED, .s-stopped, .s-interrupted { color: var(--warn); }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f8fa; padding: .6rem;
      border: 1px solid var(--line);
      font: 13px/1.4 ui-monospace, monospace; }
.diff span { display: block; }
.diff .add { background: var(--add); } .diff .del { background: var(--del); } .diff .hunk { background: var(--hunk); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
.facts dt { color: var(--muted); } .facts dd { margin: 0; overflow-wrap: anywhere; }
meter { width: 10rem; max-width: 40vw; }
form.inline { display: inline; }
button { font: inherit; padding: .3rem .8rem; border: 1px solid var(--line); border-radius: 4px; background: #f6f8fa;
         cursor: pointer; }
button.danger { color: var(--bad); }
.notice { padding: .5rem .8rem; border-left: 4px solid var(--accent); background: var(--hunk); }
.notice.error { border-color: var(--bad); background: var(--del); }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem; margin: .6rem 0; }
ol.phases { display: flex; flex-wrap: wrap; gap: .2rem .4rem; list-style: none; margin: 0; padding: 0; }
ol.phases li { padding: 0 .4rem; border: 1px solid var(--line); border-radius: 3px; color: var(--muted); }
ol.phases li[aria-current] { color: #fff; background: var(--accent); border-color: var(--accent); font-weight: 600; }
.notes li { white-space: pre-wrap; font-size: 13px; }
#events td:nth-child(2), #events td:nth-child(3) { white-space: nowrap; }
#live[data-state=live]::before { content: "● live"; color: var(--bad); margin-right: .5rem; }
@media (max-width: 600px) {
  main { padding: .6rem; }
  .facts { grid-template-columns: 1fr; }
  .facts dd { margin-bottom: .4rem; }
  table.stack thead { display: none; }
  table.stack tr { display: block; border-bottom: 1px solid var(--line); padding: .3rem 0; }
  table.stack td { display: block; border: 0; padding: .1rem .3rem; }
}
"""

LIVE_SCRIPT = """
(function () {
  var live = document.getElementById("live");
  if (!live || !window.EventSource) return;
  var source = new EventSource(live.getAttribute("data-stream"));
  live.setAttribute("data-state", "live");
  source.addEventListener("event", function (e) {
    document.getElementById("events").insertAdjacentHTML("beforeend", e.data);
  });
  source.addEventListener("phase", function (e) {
    document.getElementById("phase").innerHTML = e.data;
  });
  source.addEventListener("board", function (e) {
    document.getElementById("board").innerHTML = e.data;
  });
  source.addEventListener("end", function (e) {
    document.getElementById("facts").innerHTML = e.data;
    live.setAttribute("data-state", "ended");
    source.close();
  });
})();
"""
