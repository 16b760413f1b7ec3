const test = require("node:test");
const assert = require("node:assert");
const { App } = require("../src");

test("HEAD is answered by the GET route with no body", async () => {
  const app = new App();
  app.get("/doc", (req, res) => res.text("some text"));
  const res = await app.handle({ method: "HEAD", url: "/doc" });
  assert.strictEqual(res.status, 200);
  assert.strictEqual(res.body, "");
});
