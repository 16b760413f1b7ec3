const test = require("node:test");
const assert = require("node:assert");
const { money } = require("../lib/format.js");

test("under a dollar has a leading digit and two decimals", () => assert.strictEqual(money(0.5), "$0.50"));
