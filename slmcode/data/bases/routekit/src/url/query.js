"use strict";

const { decodeFormComponent } = require("./encode");

// "a=1&b=2&b=3" -> { a: "1", b: ["2", "3"] }: a key given more than once keeps every value, in order.
function parseQuery(text) {
  const query = {};
  if (!text) return query;
  for (const part of text.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const key = decodeFormComponent(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? "" : decodeFormComponent(part.slice(eq + 1));
    if (!(key in query)) query[key] = value;
    else if (Array.isArray(query[key])) query[key].push(value);
    else query[key] = [query[key], value];
  }
  return query;
}

function stringifyQuery(query) {
  const parts = [];
  for (const [key, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(one)}`);
    }
  }
  return parts.join("&");
}

module.exports = { parseQuery, stringifyQuery };
