const test = require("node:test");
const assert = require("node:assert");
const { Player } = require("../src/player.js");

    test("starts at 50", () => assert.strictEqual(new Player().volume, 50));
