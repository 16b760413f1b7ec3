function money(amount) {
  return "$" + String(amount).replace(/^0\./, ".");
}

function percent(ratio) {
  return Math.round(ratio * 100) + "%";
}

module.exports = { money, percent };
