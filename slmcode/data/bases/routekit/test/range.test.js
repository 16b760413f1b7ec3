const test = require("node:test");
const assert = require("node:assert");
const { parseRange } = require("../src/http/range");

test("ranges", () => {
  assert.deepStrictEqual(parseRange("bytes=0-9", 100), { start: 0, end: 9 });
  assert.deepStrictEqual(parseRange("bytes=-10", 100), { start: 90, end: 99 });
  assert.strictEqual(parseRange("bytes=200-", 100), "unsatisfiable");
});
