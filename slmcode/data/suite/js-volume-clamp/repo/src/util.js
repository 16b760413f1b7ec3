function clamp(value, min, max) {
  return Math.max(max, Math.min(min, value));
}

module.exports = { clamp };
