const test = require("node:test");
const assert = require("node:assert");
const { App } = require("../src");

function app() {
  const a = new App();
  a.get("/doc", (req, res) => res.text("twelve bytes"));
  a.post("/form", (req, res) => res.text("posted"));
  return a;
}

test("HEAD is answered by the GET route without a body", async () => {
  const res = await app().handle({ method: "HEAD", url: "/doc" });
  assert.strictEqual(res.status, 200);
  assert.strictEqual(res.body, "");
  assert.strictEqual(res.headers.get("content-length"), "12");
});

test("a HEAD route of its own wins", async () => {
  const a = app();
  a.route("HEAD", "/doc", (req, res) => res.text("", 204));
  assert.strictEqual((await a.handle({ method: "HEAD", url: "/doc" })).status, 204);
});

test("405 lists HEAD with GET", async () => {
  const res = await app().handle({ method: "DELETE", url: "/doc" });
  assert.strictEqual(res.status, 405);
  assert.strictEqual(res.headers.get("allow"), "GET, HEAD");
  assert.strictEqual((await app().handle({ method: "HEAD", url: "/form" })).status, 405);
});
