const test = require("node:test");
const assert = require("node:assert");
const { parseQuery } = require("../src/url/query");

test("a repeated parameter keeps every value", () => {
  assert.deepStrictEqual(parseQuery("tag=red&tag=blue"), { tag: ["red", "blue"] });
});
