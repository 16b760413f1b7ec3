const test = require("node:test");
const assert = require("node:assert");
const { sumRange } = require("../math.js");

    test("inclusive", () => assert.strictEqual(sumRange(1, 4), 10));
    test("single", () => assert.strictEqual(sumRange(5, 5), 5));
