const test = require("node:test");
const assert = require("node:assert");
const { parseRange } = require("../src/http/range");

test("a suffix longer than the body is the whole body", () => {
  assert.deepStrictEqual(parseRange("bytes=-500", 120), { start: 0, end: 119 });
  assert.deepStrictEqual(parseRange("bytes=-120", 120), { start: 0, end: 119 });
});

test("other ranges are unchanged", () => {
  assert.deepStrictEqual(parseRange("bytes=-20", 120), { start: 100, end: 119 });
  assert.strictEqual(parseRange("bytes=120-", 120), "unsatisfiable");
  assert.strictEqual(parseRange("items=0-1", 120), null);
});
