"use strict";

// The date format of HTTP headers: "Tue, 05 Mar 2024 09:07:00 GMT".
function httpDate(date) {
  return new Date(date).toUTCString();
}

module.exports = { httpDate };
