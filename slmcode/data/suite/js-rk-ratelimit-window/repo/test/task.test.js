const test = require("node:test");
const assert = require("node:assert");
const { FixedWindow } = require("../src/middleware/ratelimit");

test("a blocked client is let back in in the next window", () => {
  let now = 0;
  const window = new FixedWindow({ limit: 1, windowMs: 1000, now: () => now });
  window.hit("a");
  assert.strictEqual(window.hit("a").allowed, false);
  now = 1000;
  assert.strictEqual(window.hit("a").allowed, true);
});
