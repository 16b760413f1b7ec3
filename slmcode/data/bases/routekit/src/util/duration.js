"use strict";

const MS = { ms: 1, s: 1000, m: 60000, h: 3600000, d: 86400000 };

// "15m" -> 900000, "2h" -> 7200000, "500ms" -> 500; a number is already milliseconds.
function parseDuration(text) {
  if (typeof text === "number") return text;
  const match = /^(\d+)\s*(ms|s|m|h|d)$/.exec(String(text).trim());
  if (!match) throw new Error(`not a duration: ${text}`);
  return Number(match[1]) * MS[match[2]];
}

module.exports = { parseDuration };
