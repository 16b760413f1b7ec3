const test = require("node:test");
const assert = require("node:assert");
const { parseCookies } = require("../src/http/cookies");

test("a base64 cookie keeps its padding", () => {
  assert.deepStrictEqual(parseCookies("sid=YWJjZA=="), { sid: "YWJjZA==" });
});
