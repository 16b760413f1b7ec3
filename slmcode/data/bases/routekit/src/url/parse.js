"use strict";

const { parseQuery } = require("./query");

// "/a/b?x=1#top" -> { path: "/a/b", search: "x=1", query: { x: "1" }, hash: "top" }
function parseUrl(url) {
  let rest = url || "/";
  let hash = "";
  const hashAt = rest.indexOf("#");
  if (hashAt !== -1) {
    hash = rest.slice(hashAt + 1);
    rest = rest.slice(0, hashAt);
  }
  const queryAt = rest.indexOf("?");
  const path = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const search = queryAt === -1 ? "" : rest.slice(queryAt + 1);
  return { path: path || "/", search, query: parseQuery(search), hash };
}

module.exports = { parseUrl };
