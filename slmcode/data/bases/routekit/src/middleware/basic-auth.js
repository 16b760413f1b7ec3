"use strict";

const { parseBasicAuth } = require("../http/auth");

// Middleware: only requests with a user and password from `users` ({ name: password }) get through; the
// others get 401 with the header that makes a browser ask for a login. The user's name lands in req.state.user.
function basicAuth({ users, realm = "restricted" }) {
  return async (req, res, next) => {
    const login = parseBasicAuth(req.header("authorization"));
    if (!login || !Object.hasOwn(users, login.user) || users[login.user] !== login.password) {
      res.headers.set("www-authenticate", `Basic realm="${realm}"`);
      res.text("unauthorized", 401);
      return;
    }
    req.state.user = login.user;
    await next();
  };
}

module.exports = { basicAuth };
