const test = require("node:test");
const assert = require("node:assert");
const { App, jsonBody, errorHandler } = require("../src");
const { parseSize } = require("../src/body/limit");

test("json body is parsed", async () => {
  const app = new App().use(errorHandler()).use(jsonBody());
  app.post("/echo", (req, res) => res.json(req.body));
  const res = await app.handle({ method: "POST", url: "/echo", headers: { "content-type": "application/json" }, body: '{"a":1}' });
  assert.strictEqual(res.body, '{"a":1}');
});

test("bad json is a 400", async () => {
  const app = new App().use(errorHandler()).use(jsonBody());
  app.post("/echo", (req, res) => res.json(req.body));
  const res = await app.handle({ method: "POST", url: "/echo", headers: { "content-type": "application/json" }, body: "{" });
  assert.strictEqual(res.status, 400);
});

test("sizes", () => {
  assert.strictEqual(parseSize("1kb"), 1024);
});
