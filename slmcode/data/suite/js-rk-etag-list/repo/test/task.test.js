const test = require("node:test");
const assert = require("node:assert");
const { App, etag, etagOf } = require("../src");

test("our tag among several gets 304", async () => {
  const app = new App().use(etag());
  app.get("/page", (req, res) => res.text("a page"));
  const res = await app.handle({ url: "/page", headers: { "if-none-match": `"old", ${etagOf("a page")}` } });
  assert.strictEqual(res.status, 304);
});
