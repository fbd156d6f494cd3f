// Requests to the JSON API of the server that sent the page
// (docs/http-api.md), and the configuration it offers.

import {msg} from "./i18n.js";

// A failed request: the message of the API, or of the network.
class APIError extends Error {
  constructor(m) { super(msg(m)); this.m = m; }
}

// busyPatience is how long, in seconds, a request refused with 429
// (this client's other requests still running, e.g. a review while a
// move is searched) keeps waiting for its turn, as Retry-After says,
// before the page shows the refusal.
const busyPatience = 60;

// api sends a request and returns the JSON answer, or throws an APIError.
export async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body),
  };
  for (let waited = 0; ; ) {
    let res, data;
    try {
      res = await fetch(path, opts);
      data = await res.json();
    } catch (e) {
      throw new APIError({code: "error.network", args: {status: res ? res.status + " " + res.statusText : e.message}});
    }
    if (res.ok) return data;
    const after = Math.max(1, Number(res.headers.get("Retry-After")) || 1);
    if (res.status === 429 && waited + after <= busyPatience) {
      waited += after;
      await new Promise(ok => setTimeout(ok, after * 1000));
      continue;
    }
    throw new APIError(data.code ? data : {code: "error.network", args: {status: res.status}});
  }
}

// config is what the server offers (GET api/v2/config), once loadConfig
// has run.
export let config = null;

export async function loadConfig() {
  config = await api("api/v2/config");
  return config;
}
