package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"

	"github.com/konanezero/konane/rules"
)

// boardFlag is the --size flag, declared here for every command
// (addBoardFlag): the board a command plays on, validated once (get), so
// that the layers below receive a size they can trust.
type boardFlag struct {
	size  int
	given bool
}

// addBoardFlag declares --size on fs; without says what the command does
// when it is not given (like "required" or "default 8").
func addBoardFlag(fs *flag.FlagSet, without string) *boardFlag {
	b := &boardFlag{}
	fs.Var(b, "size", boardHelp(without))
	return b
}

// boardHelp is the help of --size; without says what the command does
// when it is not given. (train declares its --size from its settings
// table, with this help.)
func boardHelp(without string) string {
	return fmt.Sprintf("board size N (%d..%d); %s", rules.MinSize, rules.MaxSize, without)
}

// String implements flag.Value.
func (b *boardFlag) String() string {
	if b == nil || !b.given {
		return ""
	}
	return strconv.Itoa(b.size)
}

// Set implements flag.Value: a whole number (its range is checked by get,
// with the command's name).
func (b *boardFlag) Set(text string) error {
	n, err := strconv.Atoi(text)
	if err != nil {
		return errors.New("want a whole number")
	}
	b.size, b.given = n, true
	return nil
}

// Given reports whether --size was given.
func (b *boardFlag) Given() bool { return b.given }

// get returns the size given, checked (cmd's usage error otherwise), or
// 0 when --size was not given.
func (b *boardFlag) get(cmd string) (int, error) {
	if !b.given {
		return 0, nil
	}
	return b.size, checkSize(cmd, b.size)
}

// getOr is get with def in place of 0 when --size was not given.
func (b *boardFlag) getOr(cmd string, def int) (int, error) {
	n, err := b.get(cmd)
	if n == 0 && err == nil {
		n = def
	}
	return n, err
}

// checkSize validates a board size given as --size.
func checkSize(cmd string, size int) error {
	if size < rules.MinSize || size > rules.MaxSize {
		return usageError(cmd, "--size %d: supported board sizes are %d..%d", size, rules.MinSize, rules.MaxSize)
	}
	return nil
}
