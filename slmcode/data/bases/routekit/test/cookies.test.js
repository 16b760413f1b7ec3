const test = require("node:test");
const assert = require("node:assert");
const { parseCookies, serializeCookie } = require("../src/http/cookies");

test("parses simple cookies", () => {
  assert.deepStrictEqual(parseCookies("a=1; b=two"), { a: "1", b: "two" });
});

test("serializes with options", () => {
  assert.strictEqual(serializeCookie("sid", "a b", { path: "/", httpOnly: true }), "sid=a%20b; Path=/; HttpOnly");
});
