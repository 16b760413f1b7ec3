"use strict";

const { normalizeMethod } = require("./methods");
const { decodeParams } = require("./params");
const { compilePattern } = require("./pattern");

class Router {
  constructor() {
    this.routes = [];
  }

  add(method, pattern, handler) {
    this.routes.push({ method: normalizeMethod(method), matcher: compilePattern(pattern), handler });
    return this;
  }

  // The first route whose pattern and method fit, with its decoded params; or why nothing fits.
  match(method, path) {
    const wanted = normalizeMethod(method);
    const allowed = new Set();
    for (const route of this.routes) {
      const raw = route.matcher.match(path);
      if (!raw) continue;
      if (route.method === wanted) return { handler: route.handler, params: decodeParams(raw) };
      allowed.add(route.method);
    }
    return allowed.size ? { status: 405, allowed: [...allowed].sort() } : { status: 404 };
  }
}

for (const method of ["get", "post", "put", "patch", "delete"]) {
  Router.prototype[method] = function (pattern, handler) {
    return this.add(method, pattern, handler);
  };
}

module.exports = { Router };
