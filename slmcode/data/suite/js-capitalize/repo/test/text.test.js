const test = require("node:test");
const assert = require("node:assert");
const { capitalizeWords } = require("../src/text.js");

    test("simple", () => assert.strictEqual(capitalizeWords("hello world"), "Hello World"));
