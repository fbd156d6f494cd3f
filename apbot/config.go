package apbot

import (
	"crypto/ed25519"
	"fmt"
	"sort"
	"strings"
)

// The environment variables of `konane bot`. AbstractPlay's reference bot
// reads BOT_TOKEN_URL, BOT_OAUTH_SCOPE, BOT_QUERY_URL and AP_BOT_PUBLIC_KEY
// (and TEST_BOT_CLIENT_ID, TEST_BOT_CLIENT_SECRET); ours all start with
// AP_BOT_.
const (
	EnvPublicKey    = "AP_BOT_PUBLIC_KEY"
	EnvClientID     = "AP_BOT_CLIENT_ID"
	EnvClientSecret = "AP_BOT_CLIENT_SECRET"
	EnvTokenURL     = "AP_BOT_TOKEN_URL"
	EnvScope        = "AP_BOT_SCOPE"
	EnvQueryURL     = "AP_BOT_QUERY_URL"
)

// Stage is one of AbstractPlay's stages: its token URL and OAuth scope
// (node-backend's serverless.yml, custom.stageConfig: botTokenUrl,
// botOAuthScope) and its botQuery URL (serverless.yml builds it from the
// stage's API Gateway id, which it does not name; the API bases here are
// bin/ap-post.mjs's defaultBaseUrl, plus "/botQuery").
type Stage struct {
	Name, TokenURL, Scope, QueryURL string
}

var stages = map[string]Stage{
	"dev": {"dev", "https://abstract-play-bots-dev.auth.us-east-1.amazoncognito.com/oauth2/token",
		"default-m2m-resource-server-dev/communicate",
		"https://alyhqu85me.execute-api.us-east-1.amazonaws.com/dev/botQuery"},
	"prod": {"prod", "https://botauth.abstractplay.com/oauth2/token",
		"default-m2m-resource-server-zssvzy/communicate",
		"https://7n1lziet28.execute-api.us-east-1.amazonaws.com/prod/botQuery"},
}

// StageNames lists the stages: "dev, prod".
func StageNames() string {
	names := make([]string, 0, len(stages))
	for n := range stages {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// FromEnv reads the bot's settings from the environment (getenv, e.g.
// os.Getenv): AbstractPlay's public key (required) and the credentials;
// stage ("" for none) gives the URLs and scope that the environment does
// not. A missing setting is an error naming its variable; the error never
// quotes a secret.
func FromEnv(stage string, getenv func(string) string) (ed25519.PublicKey, Credentials, error) {
	var st Stage
	if stage != "" {
		var ok bool
		if st, ok = stages[stage]; !ok {
			return nil, Credentials{}, fmt.Errorf("apbot: stage %s: want %s", quoteList([]string{stage}), StageNames())
		}
	}
	or := func(name, def string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		return def
	}
	c := Credentials{
		ClientID:     or(EnvClientID, ""),
		ClientSecret: or(EnvClientSecret, ""),
		TokenURL:     or(EnvTokenURL, st.TokenURL),
		Scope:        or(EnvScope, st.Scope),
		QueryURL:     or(EnvQueryURL, st.QueryURL),
	}
	var missing []string
	for _, f := range []struct{ name, v string }{{EnvPublicKey, getenv(EnvPublicKey)}, {EnvClientID, c.ClientID},
		{EnvClientSecret, c.ClientSecret}, {EnvTokenURL, c.TokenURL}, {EnvScope, c.Scope}, {EnvQueryURL, c.QueryURL}} {
		if strings.TrimSpace(f.v) == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		hint := ""
		if stage == "" {
			hint = " (--stage dev or prod gives the URLs and the scope)"
		}
		return nil, Credentials{}, fmt.Errorf("apbot: environment: %s not set%s", strings.Join(missing, ", "), hint)
	}
	key, err := ParsePublicKey(getenv(EnvPublicKey))
	if err != nil {
		return nil, Credentials{}, fmt.Errorf("%w (from %s)", err, EnvPublicKey)
	}
	return key, c, nil
}
