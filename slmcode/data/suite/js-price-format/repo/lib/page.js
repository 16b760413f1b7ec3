const { money } = require("./format.js");

function lineItem(name, amount) {
  return `${name}: ${money(amount)}`;
}

module.exports = { lineItem };
