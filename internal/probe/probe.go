// Package probe serves the operational endpoints of the project's HTTP
// services (konane serve, konane bot): the Kubernetes probes /healthz
// (the process serves) and /readyz (it takes new work), and a guard that
// keeps read-only endpoints such as /metrics to GET and HEAD. Any other
// method gets 405 with an Allow header, so that no cross-site POST can
// reach them.
package probe

import (
	"fmt"
	"net/http"
)

// ReadOnly serves h for GET and HEAD, and 405 for every other method.
func ReadOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed: GET or HEAD", http.StatusMethodNotAllowed)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Handler answers /healthz with 200 "ok", and /readyz with 200 "ok" while
// ready() holds and 503 "draining" once it does not; it is read-only
// (ReadOnly). Mount it on both paths.
func Handler(ready func() bool) http.Handler {
	return ReadOnly(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if r.URL.Path == "/readyz" && !ready() {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, "draining")
			return
		}
		fmt.Fprintln(w, "ok")
	}))
}
