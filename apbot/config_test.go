package apbot

import (
	"strings"
	"testing"
)

func TestFromEnv(t *testing.T) {
	env := map[string]string{EnvPublicKey: apDefaultKey, EnvClientID: "id", EnvClientSecret: testSecret}
	getenv := func(k string) string { return env[k] }
	_, c, err := FromEnv("dev", getenv)
	if err != nil {
		t.Fatal(err)
	}
	if c.TokenURL != "https://abstract-play-bots-dev.auth.us-east-1.amazoncognito.com/oauth2/token" ||
		c.Scope != "default-m2m-resource-server-dev/communicate" || !strings.HasSuffix(c.QueryURL, "/dev/botQuery") {
		t.Errorf("dev: %+v", c)
	}
	env[EnvQueryURL] = "https://example.org/prod/botQuery"
	_, c, err = FromEnv("prod", getenv)
	if err != nil || c.TokenURL != "https://botauth.abstractplay.com/oauth2/token" || c.QueryURL != env[EnvQueryURL] ||
		c.Scope != "default-m2m-resource-server-zssvzy/communicate" {
		t.Errorf("prod with a botQuery URL of the environment: %+v %v", c, err)
	}
	delete(env, EnvQueryURL)
	if _, _, err := FromEnv("", getenv); err == nil || err.Error() !=
		"apbot: environment: AP_BOT_TOKEN_URL, AP_BOT_SCOPE, AP_BOT_QUERY_URL not set (--stage dev or prod gives the URLs and the scope)" {
		t.Errorf("no stage: %v", err)
	}
	if _, _, err := FromEnv("staging", getenv); err == nil || !strings.Contains(err.Error(), `stage ["staging"]: want dev, prod`) {
		t.Errorf("unknown stage: %v", err)
	}
	env[EnvPublicKey] = "ssh-ed25519 " + testSecret
	if _, _, err := FromEnv("dev", getenv); err == nil || !strings.Contains(err.Error(), "AP_BOT_PUBLIC_KEY") {
		t.Errorf("bad key: %v", err)
	} else if strings.Contains(err.Error(), testSecret) {
		t.Errorf("the error quotes the environment: %v", err)
	}
}
