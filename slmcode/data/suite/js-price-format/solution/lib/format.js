function money(amount) {
  return "$" + amount.toFixed(2);
}

function percent(ratio) {
  return Math.round(ratio * 100) + "%";
}

module.exports = { money, percent };
