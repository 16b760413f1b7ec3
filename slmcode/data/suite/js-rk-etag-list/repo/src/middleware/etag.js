"use strict";

const { fnv1a } = require("../util/hash");

function etagOf(body) {
  return `W/"${fnv1a(body).toString(16)}"`;
}

function matchesIfNoneMatch(header, tag) {
  return header === tag;
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
