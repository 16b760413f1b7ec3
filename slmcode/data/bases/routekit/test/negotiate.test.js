const test = require("node:test");
const assert = require("node:assert");
const { negotiate } = require("../src/http/negotiate");

test("exact type wins over wildcard", () => {
  assert.strictEqual(negotiate("text/html, */*", ["application/json", "text/html"]), "text/html");
});

test("no acceptable type", () => {
  assert.strictEqual(negotiate("image/png", ["text/html"]), null);
});
