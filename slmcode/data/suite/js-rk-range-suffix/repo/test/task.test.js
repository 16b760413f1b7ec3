const test = require("node:test");
const assert = require("node:assert");
const { parseRange } = require("../src/http/range");

test("a suffix longer than the body is the whole body", () => {
  assert.deepStrictEqual(parseRange("bytes=-500", 10), { start: 0, end: 9 });
});
