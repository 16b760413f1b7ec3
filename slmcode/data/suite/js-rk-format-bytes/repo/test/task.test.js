const test = require("node:test");
const assert = require("node:assert");
const { formatBytes } = require("../src/util/bytes");

test("1024 bytes are one kilobyte", () => assert.strictEqual(formatBytes(1024), "1 KB"));
