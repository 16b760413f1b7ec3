const test = require("node:test");
const assert = require("node:assert");
const { parseUrl } = require("../src/url/parse");
const { joinPaths } = require("../src/url/join");

test("splits path, query and hash", () => {
  const url = parseUrl("/a/b?x=1#top");
  assert.strictEqual(url.path, "/a/b");
  assert.deepStrictEqual(url.query, { x: "1" });
  assert.strictEqual(url.hash, "top");
});

test("joins paths", () => {
  assert.strictEqual(joinPaths("/api/", "/users", "7"), "/api/users/7");
});
