// Package nettest gives tests a tiny network: one residual block of 8
// filters, which builds and evaluates in milliseconds. It imports only
// net, so that the tests of every package above net (player, agent,
// selfplay, ...) can share it, and agenttest builds on it; the internal
// tests of net itself cannot (a cycle) and keep their own tinyConfig in
// net/helpers_test.go.
package nettest
