"use strict";

// A route pattern such as "/users/:id/files/*" compiled into a matcher. ":name" takes one segment, "*" the rest.
function compilePattern(pattern) {
  const names = [];
  const source = splitPath(pattern)
    .map((segment) => {
      if (segment === "*") {
        names.push("wildcard");
        return "/(.*)";
      }
      if (segment.startsWith(":")) {
        names.push(segment.slice(1));
        return "/([^/]+)";
      }
      return "/" + segment.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  const regex = new RegExp(`^${source || "/"}$`);
  return {
    pattern,
    names,
    match(path) {
      const found = regex.exec(path);
      if (!found) return null;
      const params = {};
      names.forEach((name, i) => (params[name] = found[i + 1]));
      return params;
    },
  };
}

function splitPath(path) {
  return path.split("/").filter(Boolean);
}

// "/users/" and "/users" are the same route; "//a" is "/a".
function normalizePath(path) {
  const segments = splitPath(path);
  return segments.length ? "/" + segments.join("/") : "/";
}

module.exports = { compilePattern, normalizePath };
