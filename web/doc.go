// Package web serves the page on which people play Kōnane against the
// agent in a browser (`konane serve`), in front of the play service of
// package api.
//
// The page is static/: an html/template rendered at New in each language
// of package messages (the one of the request is chosen by ?lang=, the
// lang cookie, then Accept-Language), ES modules and CSS, embedded in
// the binary; nothing is fetched from elsewhere, and every answer carries
// a Content-Security-Policy that keeps it so. Server.Handler serves the
// page, its files, /og.png (the link preview, named absolutely when
// Config.PublicURL is set) and the service's API, probes and metrics;
// Serve serves until its context ends, then drains for
// Config.DrainDelay and shuts down gracefully.
//
// What the page offers a player: docs/play.md; the API it calls:
// docs/http-api.md; its modules, languages and how to add a text:
// docs/play-page.md.
//
// # Usage
//
//	engines, _ := agent.OpenEngines("")
//	go engines.Run(ctx)
//	srv, err := web.New(web.Config{API: api.Config{Engines: engines}})
//	ln, err := net.Listen("tcp", "127.0.0.1:8080")
//	err = srv.Serve(ctx, ln) // until ctx ends, then a graceful shutdown
package web
