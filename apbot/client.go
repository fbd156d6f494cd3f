package apbot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// Outcome is how a submission to botQuery ended.
type Outcome string

// The outcomes of Client.Submit.
const (
	// Delivered: botQuery answered 200.
	Delivered Outcome = "delivered"
	// ProbablyDelivered: an attempt timed out or failed with a 5xx, and a
	// retry got a 4xx: most likely the first attempt went through and
	// the move is no longer legal.
	ProbablyDelivered Outcome = "probably_delivered"
	// Lost: the move was not delivered (botQuery refused it, or every
	// attempt failed). AbstractPlay never resends a webhook, so the game
	// waits for the bot: the log says so loudly and /metrics counts it.
	Lost Outcome = "lost"
)

// Credentials are the bot's OAuth client credentials and AbstractPlay's
// URLs; they come from the environment only (see doc.go).
type Credentials struct {
	ClientID     string
	ClientSecret string // never logged
	TokenURL     string
	Scope        string
	QueryURL     string
}

// Client submits moves to botQuery with an OAuth client-credentials token
// (golang.org/x/oauth2/clientcredentials, the form POST of grant_type,
// client_id, client_secret and scope that lib/botClient.ts makes), cached
// and refreshed 60 s before it expires; on a 401 from botQuery it fetches
// a new token and retries once; timeouts, network errors, 429 and 5xx are
// retried Retries times with exponential backoff from Backoff. It is safe
// for concurrent use.
type Client struct {
	creds   Credentials
	http    *http.Client // one attempt's timeout
	retries int
	backoff time.Duration
	log     *slog.Logger

	mu     sync.Mutex
	tokens oauth2.TokenSource // the cache; replaced to discard its token
}

// ClientConfig are the limits of a Client.
type ClientConfig struct {
	Timeout time.Duration // one request to botQuery or the token URL (0: 30 s, as lib/botClient.ts)
	Retries int           // retries of a transient failure (0: none)
	Backoff time.Duration // first wait between retries, doubled each time (0: 1 s)
	Logger  *slog.Logger  // nil: none
}

// tokenEarly is how long before its expiry a token is refreshed, as
// lib/botClient.ts does.
const tokenEarly = 60 * time.Second

// NewClient checks the credentials and returns a client.
func NewClient(creds Credentials, cfg ClientConfig) (*Client, error) {
	for _, f := range []struct{ name, v string }{{"client id", creds.ClientID}, {"client secret", creds.ClientSecret},
		{"token URL", creds.TokenURL}, {"scope", creds.Scope}, {"botQuery URL", creds.QueryURL}} {
		if f.v == "" {
			return nil, fmt.Errorf("apbot: no %s", f.name)
		}
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.Backoff == 0 {
		cfg.Backoff = time.Second
	}
	if cfg.Timeout < 0 || cfg.Retries < 0 || cfg.Backoff < 0 {
		return nil, errors.New("apbot: negative timeout, retries or backoff")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	c := &Client{creds: creds, http: &http.Client{Timeout: cfg.Timeout}, retries: cfg.Retries, backoff: cfg.Backoff, log: cfg.Logger}
	c.tokens = c.newTokenSource()
	return c, nil
}

// Longest is the longest Submit may take: every attempt timing out, with
// its token fetch, and the waits between them.
func (c *Client) Longest() time.Duration {
	attempts := time.Duration(c.retries + 2) // and the retry after a 401
	wait := time.Duration(0)
	for i := range c.retries {
		wait += c.backoff << i
	}
	return attempts*2*c.http.Timeout + wait
}

func (c *Client) newTokenSource() oauth2.TokenSource {
	cc := &clientcredentials.Config{
		ClientID:     c.creds.ClientID,
		ClientSecret: c.creds.ClientSecret,
		TokenURL:     c.creds.TokenURL,
		Scopes:       []string{c.creds.Scope},
		AuthStyle:    oauth2.AuthStyleInParams, // in the form, as lib/botClient.ts
	}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, c.http)
	fetch := tokenFunc(func() (*oauth2.Token, error) { return cc.Token(ctx) })
	return oauth2.ReuseTokenSourceWithExpiry(nil, fetch, tokenEarly)
}

type tokenFunc func() (*oauth2.Token, error)

func (f tokenFunc) Token() (*oauth2.Token, error) { return f() }

func (c *Client) token() (string, error) {
	c.mu.Lock()
	ts := c.tokens
	c.mu.Unlock()
	t, err := ts.Token()
	if err != nil {
		return "", err
	}
	return t.AccessToken, nil
}

// discardToken drops the cached token (after botQuery's 401).
func (c *Client) discardToken() {
	c.mu.Lock()
	c.tokens = c.newTokenSource()
	c.mu.Unlock()
}

// attempt is one POST to botQuery: its status code (0 when it got no
// answer), whether a failure may be retried, and whether the move may
// have reached AbstractPlay all the same (no answer, or a 5xx).
func (c *Client) attempt(ctx context.Context, body []byte) (code int, transient, maybeSent bool, err error) {
	tok, err := c.token()
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode < 500 && re.Response.StatusCode != http.StatusTooManyRequests {
			return 0, false, false, fmt.Errorf("apbot: token: %s", re.Response.Status)
		}
		return 0, true, false, fmt.Errorf("apbot: token: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.creds.QueryURL, bytes.NewReader(body))
	if err != nil {
		return 0, false, false, fmt.Errorf("apbot: botQuery: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, true, true, fmt.Errorf("apbot: botQuery: %w", err)
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	code = resp.StatusCode
	switch {
	case code == http.StatusOK:
		return code, false, false, nil
	case code >= 500:
		return code, true, true, fmt.Errorf("apbot: botQuery: %s", resp.Status)
	case code == http.StatusTooManyRequests:
		return code, true, false, fmt.Errorf("apbot: botQuery: %s", resp.Status)
	}
	return code, false, false, fmt.Errorf("apbot: botQuery: %s", resp.Status)
}

// Submit posts the move s to botQuery and says how it ended; the error is
// the last failure (nil when Delivered). It gives up early only when ctx
// ends.
func (c *Client) Submit(ctx context.Context, s Submission) (Outcome, error) {
	body, err := json.Marshal(s)
	if err != nil {
		return Lost, fmt.Errorf("apbot: %w", err)
	}
	maybeSent := false // an earlier attempt may have reached AbstractPlay
	reauthed := false
	retries := 0
	for {
		code, transient, sent, err := c.attempt(ctx, body)
		switch {
		case err == nil:
			return Delivered, nil
		case code == http.StatusUnauthorized && !reauthed:
			reauthed = true
			c.log.Warn("botQuery answered 401: fetching a new token and trying again", "gameid", s.GameID)
			c.discardToken()
			continue
		case !transient:
			if maybeSent && code >= 400 && code < 500 && code != http.StatusUnauthorized {
				return ProbablyDelivered, err
			}
			return Lost, err
		}
		maybeSent = maybeSent || sent
		if retries == c.retries {
			return Lost, err
		}
		wait := c.backoff << retries
		retries++
		c.log.Warn("botQuery failed; retrying", "gameid", s.GameID, "err", err, "retry", retries, "wait", wait)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return Lost, fmt.Errorf("apbot: %w (after %v)", ctx.Err(), err)
		}
	}
}
