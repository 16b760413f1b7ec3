const test = require("node:test");
const assert = require("node:assert");
const { App, cors } = require("../src");

test("allowed origin is echoed", async () => {
  const app = new App().use(cors({ origins: ["https://a.example"] }));
  app.get("/", (req, res) => res.text("hi"));
  const res = await app.handle({ url: "/", headers: { origin: "https://a.example" } });
  assert.strictEqual(res.headers.get("access-control-allow-origin"), "https://a.example");
});
