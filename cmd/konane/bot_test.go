package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/internal/testwait"
)

// apKey is AbstractPlay's default public key (lib/botVerify.ts).
const apKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINBTbzcpb7MaQM3TIFzsS8YmPqqT2y+/fJgevp20lzLm"

func TestBotFlagsAndEnvironment(t *testing.T) {
	t.Setenv("AP_BOT_PUBLIC_KEY", "")
	t.Setenv("AP_BOT_CLIENT_ID", "")
	t.Setenv("AP_BOT_CLIENT_SECRET", "")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--tls-cert", "c.pem"}, "bot: --tls-cert and --tls-key go together"},
		{[]string{"--move-time", "0s"}, "bot: --move-time 0s: want a positive duration"},
		{[]string{"--retries", "11"}, "bot: --retries 11: want 0..10"},
		{[]string{"--log-format", "xml"}, `bot: --log-format "xml": want text or json`},
		{[]string{"--level", "huge"}, `bot: agent: unknown level "huge"`},
		{[]string{"--stage", "dev"}, "bot: apbot: environment: AP_BOT_PUBLIC_KEY, AP_BOT_CLIENT_ID, AP_BOT_CLIENT_SECRET not set"},
		{[]string{"--stage", "qa"}, `bot: apbot: stage ["qa"]: want dev, prod`},
	} {
		var out bytes.Buffer
		err := run(context.Background(), append([]string{"bot"}, c.args...), nil, &out, &out)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: %v, want %s", c.args, err, c.want)
		}
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"bot", "--profile"}, nil, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `supported: [{"meta":"konane","variants":["size-7","size-8","size-9","size-11","size-15"]}]`) {
		t.Errorf("--profile: %s", out.String())
	}
}

// TestBotServesTLS starts "konane bot" with a certificate, pings it over
// HTTPS and stops it by its context; the secret is not in its output.
func TestBotServesTLS(t *testing.T) {
	const secret = "cmd-secret-never-printed"
	t.Setenv("AP_BOT_PUBLIC_KEY", `"`+apKey+`"`)
	t.Setenv("AP_BOT_CLIENT_ID", "id")
	t.Setenv("AP_BOT_CLIENT_SECRET", secret)
	cert, key := selfSigned(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	var errb bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"bot", "--stage", "dev", "--addr", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", key,
			"--level", "easy"}, nil, outW, &errb)
		outW.Close()
	}()
	r := bufio.NewReader(outR)
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("no greeting: %v (%s)", err, errb.String())
	}
	rest := make(chan string, 1)
	go func() { b, _ := io.ReadAll(r); rest <- string(b) }()
	m := regexp.MustCompile(`bot on (https://\S+/) \(stage dev;`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("greeting %q", line)
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	resp, err := c.Get(m[1])
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || strings.TrimSpace(string(body)) != `{"operational":true}` {
		t.Errorf("ping: %d %s", resp.StatusCode, body)
	}
	cancel()
	testwait.Returned(t, done, 20*time.Second, "bot did not stop")
	if all := line + <-rest + errb.String(); strings.Contains(all, secret) {
		t.Errorf("the secret is in the output:\n%s", all)
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key.
func selfSigned(t *testing.T) (certFile, keyFile string) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "bot"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	kder, _ := x509.MarshalECPrivateKey(priv)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	return certFile, keyFile
}
