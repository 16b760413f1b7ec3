const test = require("node:test");
const assert = require("node:assert");
const { FixedWindow } = require("../src/middleware/ratelimit");

test("blocks after the limit", () => {
  const window = new FixedWindow({ limit: 2, windowMs: 1000, now: () => 0 });
  assert.strictEqual(window.hit("a").allowed, true);
  assert.strictEqual(window.hit("a").allowed, true);
  assert.strictEqual(window.hit("a").allowed, false);
  assert.strictEqual(window.hit("b").allowed, true);
});
