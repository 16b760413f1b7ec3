const test = require("node:test");
const assert = require("node:assert");
const { negotiate } = require("../src/http/negotiate");

test("higher weight wins over earlier position", () => {
  assert.strictEqual(negotiate("text/html;q=0.5, application/json", ["text/html", "application/json"]),
    "application/json");
});

test("q=0 is never served", () => {
  assert.strictEqual(negotiate("application/json;q=0, */*;q=0.1", ["application/json", "text/plain"]),
    "text/plain");
  assert.strictEqual(negotiate("text/html;q=0", ["text/html"]), null);
});

test("equal weights keep the client's order", () => {
  assert.strictEqual(negotiate("text/plain, text/html", ["text/html", "text/plain"]), "text/plain");
});
