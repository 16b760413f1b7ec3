const test = require("node:test");
const assert = require("node:assert");
const { App, formBody } = require("../src");

test("repeated parameters are all kept", async () => {
  const app = new App();
  app.get("/search", (req, res) => res.json(req.query));
  const res = await app.handle({ url: "/search?tag=red&q=shoe&tag=blue&tag=green" });
  assert.deepStrictEqual(JSON.parse(res.body), { tag: ["red", "blue", "green"], q: "shoe" });
});

test("repeated form fields are all kept", async () => {
  const app = new App().use(formBody());
  app.post("/f", (req, res) => res.json(req.body));
  const res = await app.handle({ method: "POST", url: "/f", body: "a=1&a=2&b=x+y",
    headers: { "content-type": "application/x-www-form-urlencoded" } });
  assert.deepStrictEqual(JSON.parse(res.body), { a: ["1", "2"], b: "x y" });
});
