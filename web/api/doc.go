// Package api is the play service behind the page of `konane serve`: a
// stateless JSON API (v2) on which a client plays against the agent,
// with its admission, metrics and probes. Package web serves the page
// and mounts this service; the service knows nothing of the page.
//
// The service keeps no games: the client holds its game as a record
// {size, human, level, start, moves, resigned} and sends it with every
// request; the service replays it through the rules, trusting nothing in
// it, and answers. The endpoints are under /api/v2/ (config, new, state,
// move, hint, review, record?g=CODE, learn, openings); those of the first
// API answer 410 naming their successor. Every answer but the record
// download is JSON; an error is {error, code, args, detail}, its message
// a key of package messages with parameters and the text in the
// language of the request. The endpoints, their errors and limits:
// docs/http-api.md.
//
// Searches are admitted within a budget of Config.Searches searches of
// the default level, each weighing its simulations; up to Config.Queue
// wait at most Config.QueueWait, the rest get 503 with Retry-After; a
// client (its address, an IPv6 one by its /64; X-Forwarded-For believed
// only from Config.TrustedProxies) has at most Config.MaxPerClient
// requests in flight, 429 beyond. A replica keeps up to Config.TreeCache
// search trees keyed by the position the agent left a game in. /healthz,
// /readyz (503 once draining), /metrics (Prometheus) and one log line per
// request (Config.Logger) make it operable.
package api
