const test = require("node:test");
const assert = require("node:assert");
const { App, etag, etagOf } = require("../src");

function app() {
  const a = new App().use(etag());
  a.get("/page", (req, res) => res.text("hello page"));
  return a;
}

test("one of several tags matches", async () => {
  const tag = etagOf("hello page");
  const res = await app().handle({ url: "/page", headers: { "if-none-match": `"zzz", ${tag}` } });
  assert.strictEqual(res.status, 304);
  assert.strictEqual(res.body, "");
});

test("strong form of our weak tag and the star match", async () => {
  const strong = etagOf("hello page").replace(/^W\//, "");
  assert.strictEqual((await app().handle({ url: "/page", headers: { "if-none-match": strong } })).status, 304);
  assert.strictEqual((await app().handle({ url: "/page", headers: { "if-none-match": "*" } })).status, 304);
});

test("other tags get the page", async () => {
  const res = await app().handle({ url: "/page", headers: { "if-none-match": '"abc", W/"def"' } });
  assert.strictEqual(res.status, 200);
  assert.strictEqual(res.body, "hello page");
});
