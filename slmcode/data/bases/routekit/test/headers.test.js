const test = require("node:test");
const assert = require("node:assert");
const { Headers } = require("../src/http/headers");

test("names are case-insensitive", () => {
  const headers = new Headers({ "Content-Type": "text/html" });
  assert.strictEqual(headers.get("content-type"), "text/html");
  headers.append("Vary", "Origin").append("vary", "Accept");
  assert.strictEqual(headers.get("VARY"), "Origin, Accept");
});
