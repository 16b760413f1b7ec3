"use strict";

// Content negotiation: the Accept header lists types with an optional weight q (default 1, q=0 means never).
function parseAccept(header) {
  return String(header || "*/*")
    .split(",")
    .map((entry, order) => {
      const [type, ...params] = entry.trim().split(";");
      let q = 1;
      for (const param of params) {
        const [key, value] = param.trim().split("=");
        if (key === "q") q = Number(value);
      }
      return { type: type.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0, order };
    })
    .filter((entry) => entry.type);
}

function fits(range, type) {
  if (range === "*/*") return true;
  if (range.endsWith("/*")) return type.startsWith(range.slice(0, -1));
  return range === type;
}

// The offered type the client wants most (highest q, then the client's own order), or null.
function negotiate(acceptHeader, offered) {
  const ranges = parseAccept(acceptHeader);
  let best = null;
  for (const type of offered) {
    const range = ranges
      .filter((r) => fits(r.type, type))
      .sort((a, b) => specificity(b.type) - specificity(a.type))[0];
    if (!range || range.q <= 0) continue;
    if (!best || range.q > best.q || (range.q === best.q && range.order < best.order)) {
      best = { type, q: range.q, order: range.order };
    }
  }
  return best ? best.type : null;
}

function specificity(range) {
  if (range === "*/*") return 0;
  return range.endsWith("/*") ? 1 : 2;
}

module.exports = { parseAccept, negotiate };
