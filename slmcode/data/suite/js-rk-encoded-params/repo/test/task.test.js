const test = require("node:test");
const assert = require("node:assert");
const { App } = require("../src");

test("a path parameter reaches the handler decoded", async () => {
  const app = new App();
  app.get("/files/:name", (req, res) => res.text(req.params.name));
  assert.strictEqual((await app.handle({ url: "/files/my%20report.pdf" })).body, "my report.pdf");
});
