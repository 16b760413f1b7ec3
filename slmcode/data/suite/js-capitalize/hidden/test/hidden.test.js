const test = require("node:test");
const assert = require("node:assert");
const { capitalizeWords } = require("../src/text.js");

    test("double spaces are kept", () => assert.strictEqual(capitalizeWords("a  b"), "A  B"));
    test("leading space", () => assert.strictEqual(capitalizeWords(" x y"), " X Y"));
    test("empty", () => assert.strictEqual(capitalizeWords(""), ""));
