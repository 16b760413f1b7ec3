const test = require("node:test");
const assert = require("node:assert");
const { formatBytes } = require("../src/util/bytes");

test("exact powers of 1024 move up a unit", () => {
  assert.strictEqual(formatBytes(1024), "1 KB");
  assert.strictEqual(formatBytes(1048576), "1 MB");
  assert.strictEqual(formatBytes(1024 ** 3), "1 GB");
});

test("other sizes are unchanged", () => {
  assert.strictEqual(formatBytes(1023), "1023 B");
  assert.strictEqual(formatBytes(1536), "1.5 KB");
  assert.strictEqual(formatBytes(5 * 1024 ** 4), "5120 GB");
});
