package apbot

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The signature headers of AbstractPlay's webhooks (lib/botSigning.ts).
const (
	HeaderTimestamp = "X-Signature-Timestamp"
	HeaderNonce     = "X-Signature-Nonce"
	HeaderSignature = "X-Signature"
)

// MaxSignatureAge is how far a webhook's timestamp may be from the bot's
// clock, either way, as lib/botVerify.ts allows (MAX_SIGNATURE_AGE_SEC).
const MaxSignatureAge = 5 * time.Minute

// maxNonceLen bounds the nonces remembered (AbstractPlay's are 32 hex
// digits).
const maxNonceLen = 128

// Errors of Verifier.Verify, for the log; the webhook gets 401 for all
// of them (ErrNoRoom: 503).
var (
	ErrUnsigned   = errors.New("apbot: missing signature headers")
	ErrTimestamp  = errors.New("apbot: signature timestamp is not a number of seconds")
	ErrStale      = errors.New("apbot: signature timestamp more than 5 minutes from our clock")
	ErrSignature  = errors.New("apbot: invalid signature")
	ErrReplayed   = errors.New("apbot: nonce already seen")
	ErrNoRoom     = errors.New("apbot: too many nonces in the window to remember another")
	errLongNonce  = errors.New("apbot: nonce longer than 128 bytes")
	errBadSigText = errors.New("apbot: signature is not base64")
)

// Verifier checks the signatures of AbstractPlay's webhooks as
// lib/botVerify.ts does (Ed25519 over "<timestamp>.<nonce>.<raw body>",
// timestamps within MaxSignatureAge of now), and, which the reference does
// not, refuses a nonce already seen: each accepted nonce is remembered
// until no request carrying it can pass the timestamp check any more
// (2×MaxSignatureAge), at most MaxNonces of them. It is safe for
// concurrent use.
type Verifier struct {
	key       ed25519.PublicKey
	maxNonces int
	now       func() time.Time

	mu     sync.Mutex
	nonces map[string]time.Time // nonce → when it may be forgotten
	order  []nonceEntry         // the same, oldest first
}

type nonceEntry struct {
	nonce   string
	expires time.Time
}

// DefaultMaxNonces is the number of nonces a Verifier remembers at most:
// at AbstractPlay's pace many times what ten minutes bring.
const DefaultMaxNonces = 100_000

// NewVerifier returns a verifier of signatures by key that remembers at
// most maxNonces nonces (0: DefaultMaxNonces); now is the clock (nil:
// time.Now).
func NewVerifier(key ed25519.PublicKey, maxNonces int, now func() time.Time) *Verifier {
	if maxNonces <= 0 {
		maxNonces = DefaultMaxNonces
	}
	if now == nil {
		now = time.Now
	}
	return &Verifier{key: key, maxNonces: maxNonces, now: now, nonces: map[string]time.Time{}}
}

// Verify checks the signature headers h of a request whose raw body is
// body, and remembers its nonce. Its errors are those above.
func (v *Verifier) Verify(h http.Header, body []byte) error {
	ts, nonce, sig := h.Get(HeaderTimestamp), h.Get(HeaderNonce), h.Get(HeaderSignature)
	if ts == "" || nonce == "" || sig == "" {
		return ErrUnsigned
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(ts), 10, 64)
	if err != nil {
		return ErrTimestamp
	}
	now := v.now()
	age := now.Unix() - sec
	if age < 0 {
		age = -age
	}
	if age > int64(MaxSignatureAge/time.Second) {
		return ErrStale
	}
	if len(nonce) > maxNonceLen {
		return errLongNonce
	}
	s, err := base64.StdEncoding.DecodeString(strings.TrimSpace(sig))
	if err != nil {
		return errBadSigText
	}
	msg := make([]byte, 0, len(ts)+len(nonce)+2+len(body))
	msg = append(append(append(append(append(msg, ts...), '.'), nonce...), '.'), body...)
	if !ed25519.Verify(v.key, msg, s) {
		return ErrSignature
	}
	return v.remember(nonce, now)
}

// remember records nonce unless it is already there, forgetting the
// nonces whose time is over first.
func (v *Verifier) remember(nonce string, now time.Time) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	i := 0
	for i < len(v.order) && !v.order[i].expires.After(now) {
		delete(v.nonces, v.order[i].nonce)
		i++
	}
	v.order = v.order[i:]
	if _, seen := v.nonces[nonce]; seen {
		return ErrReplayed
	}
	if len(v.order) >= v.maxNonces {
		return ErrNoRoom
	}
	exp := now.Add(2 * MaxSignatureAge)
	v.nonces[nonce] = exp
	v.order = append(v.order, nonceEntry{nonce, exp})
	return nil
}
