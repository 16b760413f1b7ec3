"use strict";

// 1536 -> "1.5 KB"
function formatBytes(count) {
  const units = ["B", "KB", "MB", "GB"];
  let value = count;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = unit === 0 ? String(value) : value.toFixed(1).replace(/\.0$/, "");
  return `${text} ${units[unit]}`;
}

module.exports = { formatBytes };
