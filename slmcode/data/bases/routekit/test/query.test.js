const test = require("node:test");
const assert = require("node:assert");
const { parseQuery, stringifyQuery } = require("../src/url/query");

test("parses pairs and decodes them", () => {
  assert.deepStrictEqual(parseQuery("q=red+shoes&page=2"), { q: "red shoes", page: "2" });
});

test("stringify encodes", () => {
  assert.strictEqual(stringifyQuery({ q: "a b", n: 1 }), "q=a%20b&n=1");
});
