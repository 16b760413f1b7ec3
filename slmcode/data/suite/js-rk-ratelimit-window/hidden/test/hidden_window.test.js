const test = require("node:test");
const assert = require("node:assert");
const { App, rateLimit } = require("../src");
const { FixedWindow } = require("../src/middleware/ratelimit");

test("the count starts again in the next window", () => {
  let now = 1000;
  const window = new FixedWindow({ limit: 1, windowMs: 60000, now: () => now });
  assert.strictEqual(window.hit("a").allowed, true);
  assert.strictEqual(window.hit("a").allowed, false);
  now += 60000;
  const again = window.hit("a");
  assert.strictEqual(again.allowed, true);
  assert.strictEqual(again.resetAt, 121000);
});

test("the middleware lets the client back in", async () => {
  let now = 0;
  const app = new App().use(rateLimit({ limit: 2, windowMs: 1000, now: () => now }));
  app.get("/", (req, res) => res.text("ok"));
  const hit = () => app.handle({ url: "/", headers: { "x-client-id": "c1" } });
  await hit();
  await hit();
  assert.strictEqual((await hit()).status, 429);
  now = 5000;
  assert.strictEqual((await hit()).status, 200);
});
