function pick(obj, keys) {
  const out = {};
  for (const key of keys) if (key in obj) out[key] = obj[key];
  return out;
}

function get(obj, path, fallback) {
  let value = obj;
  for (const key of path.split(".")) {
    if (value === null || value === undefined) return fallback;
    value = value[key];
  }
  return value === undefined || value === null ? fallback : value;
}

module.exports = { pick, get };
