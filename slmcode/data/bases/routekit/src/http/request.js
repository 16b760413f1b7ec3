"use strict";

const { normalizeMethod } = require("../router/methods");
const { parseUrl } = require("../url/parse");
const { Headers } = require("./headers");
const { parseCookies } = require("./cookies");

// The request a handler sees, built from a plain { method, url, headers, body } object.
class Request {
  constructor({ method = "GET", url = "/", headers = {}, body = "" } = {}) {
    const parsed = parseUrl(url);
    this.method = normalizeMethod(method);
    this.url = url;
    this.path = parsed.path;
    this.query = parsed.query;
    this.headers = new Headers(headers);
    this.body = body;
    this.params = {};
    this.state = {};
  }

  get cookies() {
    return parseCookies(this.headers.get("cookie") || "");
  }

  header(name) {
    return this.headers.get(name);
  }
}

module.exports = { Request };
