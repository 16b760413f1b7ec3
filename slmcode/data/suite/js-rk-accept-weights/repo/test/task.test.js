const test = require("node:test");
const assert = require("node:assert");
const { negotiate } = require("../src/http/negotiate");

test("the client's weights choose the type", () => {
  assert.strictEqual(negotiate("text/html;q=0.5, application/json", ["text/html", "application/json"]),
    "application/json");
});
