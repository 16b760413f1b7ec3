const test = require("node:test");
const assert = require("node:assert");
const { capitalizeWords } = require("../src/text.js");

test("two spaces between words stay two", () => assert.strictEqual(capitalizeWords("to  be"), "To  Be"));
