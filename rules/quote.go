package rules

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// MaxQuote is how many bytes of an offending input an error message
// quotes at most (Quote).
const MaxQuote = 100

// Quote returns s quoted as by %q, but at most its first MaxQuote bytes
// (cut at a character boundary), followed by "…" and its length when it
// is longer; so that an error message that echoes its input stays one
// short line whatever the input: Quote of a 2 MB line is
// "xxxx…x"… (2000000 bytes).
func Quote(s string) string {
	if len(s) <= MaxQuote {
		return strconv.Quote(s)
	}
	cut := MaxQuote
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:cut]), len(s))
}
