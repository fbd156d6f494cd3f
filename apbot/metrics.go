package apbot

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Results of a move webhook, the label of konane_bot_moves_total: the
// Outcomes of a submission, and the moves never submitted.
const (
	resultIllegal   = "illegal_history" // the history does not replay
	resultGameOver  = "game_over"       // the history ends the game
	resultDuplicate = "duplicate"       // the same game and position again: not submitted twice
	resultRefused   = "refused"         // draining, or too many moves in flight
	resultNoMove    = "search_failed"   // the search gave no move
)

// metrics are the bot's Prometheus metrics, in a registry of its own.
type metrics struct {
	reg        *prometheus.Registry
	webhooks   *prometheus.CounterVec // by verb and status code
	moves      *prometheus.CounterVec // by result
	challenges *prometheus.CounterVec // by result: accepted, refused
	search     *prometheus.HistogramVec
}

func newMetrics(b *Bot) *metrics {
	reg := prometheus.NewRegistry()
	m := &metrics{
		reg: reg,
		webhooks: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "konane_bot_requests_total",
			Help: "Requests to the webhook endpoint, by verb (ping, challenge, move, bad) and status code."}, []string{"verb", "code"}),
		moves: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "konane_bot_moves_total",
			Help: "Move webhooks by result: delivered, probably_delivered, lost (the game waits: alert on it), illegal_history, game_over, duplicate, refused, search_failed."}, []string{"result"}),
		challenges: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "konane_bot_challenges_total",
			Help: "Challenges by result: accepted, refused."}, []string{"result"}),
		search: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "konane_bot_search_seconds",
			Help:    "Time to choose a move, by board.",
			Buckets: []float64{.05, .1, .25, .5, 1, 2, 5, 10, 30, 60}}, []string{"board"}),
	}
	reg.MustRegister(m.webhooks, m.moves, m.challenges, m.search,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "konane_bot_moves_in_flight",
		Help: "Move webhooks taken and not yet submitted."}, func() float64 { return float64(b.pending.Load()) }))
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "konane_bot_ready",
		Help: "1 while the bot takes webhooks (not draining)."}, func() float64 {
		if b.draining.Load() {
			return 0
		}
		return 1
	}))
	return m
}

func (m *metrics) handler() http.Handler { return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}) }
