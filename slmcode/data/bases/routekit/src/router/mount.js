"use strict";

const { joinPaths } = require("../url/join");

// Copy every route of `child` into `parent` under `prefix`.
function mount(parent, prefix, child) {
  for (const route of child.routes) {
    parent.add(route.method, joinPaths(prefix, route.matcher.pattern), route.handler);
  }
  return parent;
}

module.exports = { mount };
