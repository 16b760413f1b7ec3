const test = require("node:test");
const assert = require("node:assert");
const { pick } = require("../src/objects.js");

    test("pick", () => assert.deepStrictEqual(pick({ a: 1, b: 2 }, ["a"]), { a: 1 }));
