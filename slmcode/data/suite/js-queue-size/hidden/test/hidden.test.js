const test = require("node:test");
const assert = require("node:assert");
const { Queue } = require("../lib/queue.js");

    test("size and isEmpty", () => {
      const q = new Queue();
      assert.strictEqual(q.isEmpty(), true);
      assert.strictEqual(q.size(), 0);
      q.enqueue("a");
      q.enqueue("b");
      assert.strictEqual(q.size(), 2);
      assert.strictEqual(q.isEmpty(), false);
      q.dequeue();
      assert.strictEqual(q.size(), 1);
    });
