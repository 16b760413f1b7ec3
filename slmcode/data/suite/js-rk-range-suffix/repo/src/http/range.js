"use strict";

// "bytes=0-99", "bytes=100-", "bytes=-50" against a body of `size` bytes -> { start, end } (inclusive),
// null when the header is absent or not about bytes, or "unsatisfiable".
function parseRange(header, size) {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  let start;
  let end;
  if (match[1] === "") {
    start = size - Number(match[2]);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}

module.exports = { parseRange };
