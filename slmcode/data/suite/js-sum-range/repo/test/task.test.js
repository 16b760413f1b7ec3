const test = require("node:test");
const assert = require("node:assert");
const { sumRange } = require("../math.js");

test("b itself is added", () => assert.strictEqual(sumRange(2, 3), 5));
