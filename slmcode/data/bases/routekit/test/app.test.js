const test = require("node:test");
const assert = require("node:assert");
const { App } = require("../src");

test("routes to the handler with params", async () => {
  const app = new App();
  app.get("/users/:id", (req, res) => res.json({ id: req.params.id }));
  const res = await app.handle({ url: "/users/7" });
  assert.strictEqual(res.status, 200);
  assert.strictEqual(res.body, '{"id":"7"}');
});

test("404 for unknown paths", async () => {
  const res = await new App().handle({ url: "/nope" });
  assert.strictEqual(res.status, 404);
});
