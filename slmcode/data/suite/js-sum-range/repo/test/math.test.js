const test = require("node:test");
const assert = require("node:assert");
const { square } = require("../math.js");

    test("square", () => assert.strictEqual(square(3), 9));
