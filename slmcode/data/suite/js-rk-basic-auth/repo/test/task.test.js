const test = require("node:test");
const assert = require("node:assert");
const { App, basicAuth } = require("../src");

test("a request without credentials is refused", async () => {
  const app = new App().use(basicAuth({ users: { ada: "pw" } }));
  app.get("/admin", (req, res) => res.text("secret"));
  const res = await app.handle({ url: "/admin" });
  assert.strictEqual(res.status, 401);
  assert.strictEqual(res.headers.get("www-authenticate"), 'Basic realm="restricted"');
});
