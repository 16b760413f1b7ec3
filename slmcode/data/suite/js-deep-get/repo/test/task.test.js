const test = require("node:test");
const assert = require("node:assert");
const { get } = require("../src/objects.js");

test("a missing step gives the fallback", () => assert.strictEqual(get({ a: {} }, "a.b.c", "none"), "none"));
