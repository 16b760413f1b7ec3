const test = require("node:test");
const assert = require("node:assert");
const { App } = require("../src");

test("path parameters are decoded", async () => {
  const app = new App();
  app.get("/files/:name", (req, res) => res.text(req.params.name));
  assert.strictEqual((await app.handle({ url: "/files/my%20report.pdf" })).body, "my report.pdf");
  assert.strictEqual((await app.handle({ url: "/files/caf%C3%A9" })).body, "café");
});

test("a broken escape does not crash", async () => {
  const app = new App();
  app.get("/files/:name", (req, res) => res.text(req.params.name));
  const res = await app.handle({ url: "/files/%E0%A4%A" });
  assert.strictEqual(res.status, 200);
  assert.strictEqual(res.body, "%E0%A4%A");
});
