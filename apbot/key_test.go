package apbot

import (
	"bytes"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// apDefaultKey is lib/botVerify.ts's DEFAULT_SSH_PUBLIC_KEY.
const apDefaultKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINBTbzcpb7MaQM3TIFzsS8YmPqqT2y+/fJgevp20lzLm"

func TestParsePublicKey(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{7}, 64)))
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	wire := base64.StdEncoding.EncodeToString(sp.Marshal())
	line := "ssh-ed25519 " + wire + " ap@abstractplay"
	rfc4716 := "---- BEGIN SSH2 PUBLIC KEY ----\nComment: \"256-bit ED25519, converted by ap from \\\n OpenSSH\"\n" +
		wire[:40] + "\n" + wire[40:] + "\n---- END SSH2 PUBLIC KEY ----\n"
	der, _ := x509.MarshalPKIXPublicKey(pub)
	pemKey := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for name, text := range map[string]string{
		"ssh line":        line,
		"ssh line bare":   "ssh-ed25519 " + wire,
		"rfc 4716":        rfc4716,
		"rfc 4716 crlf":   strings.ReplaceAll(rfc4716, "\n", "\r\n"),
		"pem":             pemKey,
		"wire base64":     wire,
		"base64 line":     b64(line),
		"base64 rfc 4716": b64(rfc4716),
		"base64 pem":      b64(pemKey),
		"double quoted":   `"` + line + `"`,
		"single quoted":   "'" + rfc4716 + "'",
		"spaces":          "\n  " + line + "  \n",
	} {
		got, err := ParsePublicKey(text)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !got.Equal(pub) {
			t.Errorf("%s: a different key", name)
		}
	}
	if _, err := ParsePublicKey(apDefaultKey); err != nil {
		t.Errorf("AbstractPlay's default key: %v", err)
	}
	rsaLine := "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQDJ"
	for name, text := range map[string]string{
		"empty":      "  ",
		"garbage":    "not a key at all",
		"rsa":        rsaLine,
		"bad base64": "ssh-ed25519 !!!!",
		"short wire": base64.StdEncoding.EncodeToString([]byte("abc")),
		"long wire":  base64.StdEncoding.EncodeToString(append(sp.Marshal(), 0)),
		"rsa wire":   strings.Fields(rsaLine)[1],
		"no key":     "ssh-ed25519",
		"short key":  "ssh-ed25519 " + base64.StdEncoding.EncodeToString(sp.Marshal()[:40]),
		"bad pem":    "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n",
	} {
		if _, err := ParsePublicKey(text); err == nil || !strings.HasPrefix(err.Error(), "apbot: public key") {
			t.Errorf("%s: error %v, want one starting apbot: public key", name, err)
		}
	}
}

// TestVerifierNonceMemory: nonces are remembered for twice the window, at
// most maxNonces of them; when full, a new one waits for room.
func TestVerifierNonceMemory(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{9}, 64)))
	now := time.Unix(1_800_000_000, 0)
	v := NewVerifier(pub, 2, func() time.Time { return now })
	ap := &fakeAP{priv: priv}
	body := []byte(`{"verb":"challenge"}`)
	h1, h2, h3 := ap.sign(body, now), ap.sign(body, now), ap.sign(body, now)
	for i, h := range []http.Header{h1, h2} {
		if err := v.Verify(h, body); err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
	}
	if err := v.Verify(h1, body); err != ErrReplayed {
		t.Errorf("replay: %v, want ErrReplayed", err)
	}
	if err := v.Verify(h3, body); err != ErrNoRoom {
		t.Errorf("third nonce: %v, want ErrNoRoom", err)
	}
	now = now.Add(MaxSignatureAge) // still within reach of h1 (its own age is 5 min)
	if err := v.Verify(h1, body); err != ErrReplayed {
		t.Errorf("replay 5 min later: %v, want ErrReplayed", err)
	}
	now = now.Add(MaxSignatureAge) // the nonces are forgotten; their timestamps too old
	if err := v.Verify(h1, body); err != ErrStale {
		t.Errorf("replay 10 min later: %v, want ErrStale", err)
	}
	h4 := ap.sign(body, now)
	if err := v.Verify(h4, body); err != nil {
		t.Errorf("a new nonce once the old ones are forgotten: %v", err)
	}
}

func TestBoardOf(t *testing.T) {
	for _, c := range []struct {
		variants []string
		want     string
		playable bool
		err      string
	}{
		{nil, "6x6 (default)", true, ""},
		{[]string{}, "6x6 (default)", true, ""},
		{[]string{""}, "6x6 (default)", true, ""},
		{[]string{"size-8"}, "8x8 (size-8)", true, ""},
		{[]string{"size-7"}, "7x6 (size-7)", true, ""},
		{[]string{"size-9"}, "9x8 (size-9)", true, ""},
		{[]string{"size-11"}, "11x8 (size-11)", true, ""},
		{[]string{"size-15"}, "15x12 (size-15)", true, ""},
		{[]string{"size-6"}, "", false, `apbot: variants ["size-6"]: not a Kōnane board of AbstractPlay`},
		{[]string{"size-8", "size-7"}, "", false, `apbot: variants ["size-8" "size-7"]: more than one variant`},
	} {
		b, err := BoardOf(c.variants)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: error %v, want %s", c.variants, err, c.err)
			}
			continue
		}
		if err != nil || b.String() != c.want || b.Playable() != c.playable {
			t.Errorf("%q: %v %v playable %v, want %s playable %v", c.variants, b, err, b.Playable(), c.want, c.playable)
		}
	}
}
