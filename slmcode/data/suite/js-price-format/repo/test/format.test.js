const test = require("node:test");
const assert = require("node:assert");
const { percent } = require("../lib/format.js");

    test("percent", () => assert.strictEqual(percent(0.25), "25%"));
