"use strict";

const { Headers } = require("./headers");
const { statusText } = require("./status");

class Response {
  constructor() {
    this.status = 200;
    this.headers = new Headers();
    this.body = "";
  }

  get statusText() {
    return statusText(this.status);
  }

  text(body, status = this.status) {
    this.status = status;
    this.body = String(body);
    if (!this.headers.has("content-type")) this.headers.set("content-type", "text/plain; charset=utf-8");
    this.headers.set("content-length", Buffer.byteLength(this.body));
    return this;
  }

  json(value, status = this.status) {
    this.headers.set("content-type", "application/json; charset=utf-8");
    return this.text(JSON.stringify(value), status);
  }

  redirect(location, status = 302) {
    this.headers.set("location", location);
    return this.text("", status);
  }

  empty(status = 204) {
    this.status = status;
    this.body = "";
    this.headers.delete("content-length");
    return this;
  }
}

module.exports = { Response };
