"use strict";

const { Request } = require("./http/request");
const { Response } = require("./http/response");
const { compose } = require("./middleware/compose");
const { Router } = require("./router/router");

// An app: middleware in order, then the router. handle() takes a plain request object and resolves to a
// Response, so an app is tested without a socket.
class App {
  constructor() {
    this.stack = [];
    this.router = new Router();
  }

  use(middleware) {
    this.stack.push(middleware);
    return this;
  }

  route(method, pattern, handler) {
    this.router.add(method, pattern, handler);
    return this;
  }

  async handle(raw) {
    const req = raw instanceof Request ? raw : new Request(raw);
    const res = new Response();
    await compose(this.stack)(req, res, () => this.dispatch(req, res));
    return res;
  }

  async dispatch(req, res) {
    const found = this.router.match(req.method, req.path);
    if (found.handler) {
      req.params = found.params;
      await found.handler(req, res);
      return;
    }
    if (found.status === 405) res.headers.set("allow", found.allowed.join(", "));
    res.text(found.status === 405 ? "method not allowed" : "not found", found.status);
  }
}

for (const method of ["get", "post", "put", "patch", "delete"]) {
  App.prototype[method] = function (pattern, handler) {
    return this.route(method, pattern, handler);
  };
}

module.exports = { App };
