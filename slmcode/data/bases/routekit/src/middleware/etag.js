"use strict";

const { fnv1a } = require("../util/hash");

function etagOf(body) {
  return `W/"${fnv1a(body).toString(16)}"`;
}

// If-None-Match may list several tags ('"a", W/"b"') or be "*".
function matchesIfNoneMatch(header, tag) {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const bare = (t) => t.trim().replace(/^W\//, "");
  return header.split(",").some((candidate) => bare(candidate) === bare(tag));
}

// Middleware: tag successful GET answers; answer 304 with no body when the client already has this one.
function etag() {
  return async (req, res, next) => {
    await next();
    if (req.method !== "GET" || res.status !== 200 || !res.body) return;
    const tag = etagOf(res.body);
    res.headers.set("etag", tag);
    if (matchesIfNoneMatch(req.header("if-none-match"), tag)) res.empty(304);
  };
}

module.exports = { etag, etagOf, matchesIfNoneMatch };
