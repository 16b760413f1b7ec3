const test = require("node:test");
const assert = require("node:assert");
const { get } = require("../src/objects.js");

    test("nested", () => assert.strictEqual(get({ a: { b: { c: 3 } } }, "a.b.c"), 3));
    test("missing", () => assert.strictEqual(get({ a: {} }, "a.b.c", "none"), "none"));
    test("null on the way", () => assert.strictEqual(get({ a: null }, "a.b", 7), 7));
    test("falsy kept", () => assert.strictEqual(get({ a: { b: 0 } }, "a.b", 9), 0));
