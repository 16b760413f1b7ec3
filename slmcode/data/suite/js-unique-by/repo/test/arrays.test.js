const test = require("node:test");
const assert = require("node:assert");
const { last } = require("../lib/arrays.js");

    test("last", () => assert.strictEqual(last([1, 2]), 2));
