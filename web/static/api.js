// Requests to the JSON API of the server that sent the page
// (docs/http-api.md), and the configuration it offers.

import {msg} from "./i18n.js";

// A failed request: the message of the API, or of the network.
class APIError extends Error {
  constructor(m) { super(msg(m)); this.m = m; }
}

// api sends a request and returns the JSON answer, or throws an APIError.
export async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body),
  };
  let res, data;
  try {
    res = await fetch(path, opts);
    data = await res.json();
  } catch (e) {
    throw new APIError({code: "error.network", args: {status: res ? res.status + " " + res.statusText : e.message}});
  }
  if (!res.ok) throw new APIError(data.code ? data : {code: "error.network", args: {status: res.status}});
  return data;
}

// config is what the server offers (GET api/v2/config), once loadConfig
// has run.
export let config = null;

export async function loadConfig() {
  config = await api("api/v2/config");
  return config;
}
