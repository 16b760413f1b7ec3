const test = require("node:test");
const assert = require("node:assert");
const { formatBytes } = require("../src/util/bytes");
const { parseDuration } = require("../src/util/duration");
const { mimeType } = require("../src/util/mime");

test("bytes", () => {
  assert.strictEqual(formatBytes(1536), "1.5 KB");
  assert.strictEqual(formatBytes(10), "10 B");
});

test("durations", () => {
  assert.strictEqual(parseDuration("15m"), 900000);
});

test("mime", () => {
  assert.strictEqual(mimeType("a/b.CSS"), "text/css; charset=utf-8");
});
