const test = require("node:test");
const assert = require("node:assert");
const { Player } = require("../src/player.js");

test("the volume stops at 0", () => assert.strictEqual(new Player().setVolume(-5), 0));
