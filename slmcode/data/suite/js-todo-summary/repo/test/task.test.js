const test = require("node:test");
const assert = require("node:assert");
const { TodoStore } = require("../src/store.js");
const { summary } = require("../src/summary.js");

test("the summary says how many are done", () => {
  const store = new TodoStore();
  store.add("milk");
  store.add("eggs");
  store.complete("eggs");
  assert.strictEqual(summary(store), "2 todos, 1 done");
});
