const test = require("node:test");
const assert = require("node:assert");
const { uniqueBy } = require("../lib/arrays.js");

test("the first item of each key is kept", () => {
  assert.deepStrictEqual(uniqueBy(["ab", "c", "de"], (s) => s.length), ["ab", "c"]);
});
