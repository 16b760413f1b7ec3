"use strict";

// Errors thrown by handlers become answers: their `status` if they carry one, 500 otherwise (without
// leaking the message of an unexpected error).
function errorHandler({ report = () => {} } = {}) {
  return async (req, res, next) => {
    try {
      await next();
    } catch (error) {
      const status = Number.isInteger(error.status) ? error.status : 500;
      if (status >= 500) report(error);
      res.headers.delete("content-type");
      res.json({ error: status >= 500 ? "internal error" : error.message }, status);
    }
  };
}

module.exports = { errorHandler };
