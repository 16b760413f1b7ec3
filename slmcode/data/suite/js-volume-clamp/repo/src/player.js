const { clamp } = require("./util.js");

class Player {
  constructor() {
    this.volume = 50;
  }

  setVolume(value) {
    this.volume = clamp(value, 0, 100);
    return this.volume;
  }
}

module.exports = { Player };
