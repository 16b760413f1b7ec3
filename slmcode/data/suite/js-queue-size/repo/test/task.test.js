const test = require("node:test");
const assert = require("node:assert");
const { Queue } = require("../lib/queue.js");

test("size counts what is waiting", () => {
  const q = new Queue();
  q.enqueue("a");
  assert.strictEqual(q.size(), 1);
  assert.strictEqual(q.isEmpty(), false);
});
