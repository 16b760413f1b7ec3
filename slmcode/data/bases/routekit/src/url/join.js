"use strict";

// joinPaths("/api/", "/users", "7") -> "/api/users/7"
function joinPaths(...parts) {
  const segments = parts.flatMap((p) => String(p).split("/")).filter(Boolean);
  return "/" + segments.join("/");
}

module.exports = { joinPaths };
