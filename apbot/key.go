package apbot

import (
	"bytes"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// ParsePublicKey reads AbstractPlay's Ed25519 public key in the forms its
// reference verifier (lib/botVerify.ts) accepts: an OpenSSH line
// ("ssh-ed25519 AAAA... comment"), an RFC 4716 SSH2 public-key file (as
// published at https://play.abstractplay.com/ap-public-key.txt), a PEM
// SubjectPublicKeyInfo block ("-----BEGIN PUBLIC KEY-----"), the bare
// base64 of the SSH wire format, or base64 of any of these text forms;
// wrapping quotes and surrounding space are ignored.
func ParsePublicKey(text string) (ed25519.PublicKey, error) {
	k := stripQuotes(text)
	if k == "" {
		return nil, errors.New("apbot: public key: empty")
	}
	if !strings.Contains(k, "ssh-") && !strings.Contains(k, "---- BEGIN") && !strings.Contains(k, "-----BEGIN") {
		// base64 of a text form, as botVerify.ts's decodePublicKeyEnv.
		if dec, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(k), "")); err == nil {
			// Text, not the wire format (which holds "ssh-ed25519" too).
			if d := strings.TrimSpace(string(dec)); strings.HasPrefix(d, "ssh-") || strings.Contains(d, "BEGIN") {
				k = d
			}
		}
	}
	k = strings.ReplaceAll(strings.ReplaceAll(k, "\r\n", "\n"), "\r", "\n")
	switch {
	case strings.Contains(k, "-----BEGIN"):
		return parsePEM(k)
	case strings.Contains(k, "---- BEGIN SSH2 PUBLIC KEY ----"):
		return parseRFC4716(k)
	case strings.HasPrefix(k, "ssh-"):
		return parseSSHLine(k)
	}
	wire, err := base64.StdEncoding.DecodeString(k)
	if err != nil {
		return nil, errors.New("apbot: public key: not an ssh-ed25519 line, an SSH2 or PEM public key, nor base64 of one")
	}
	return parseWire(wire)
}

func stripQuotes(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

// parseRFC4716 reads an SSH2 public-key file: a BEGIN line, headers
// ("Comment: ...", continued by a trailing backslash), the base64 of the
// key's wire format, an END line.
func parseRFC4716(k string) (ed25519.PublicKey, error) {
	var body strings.Builder
	inHeader := false
	for _, line := range strings.Split(k, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "----"):
			continue
		case inHeader:
			inHeader = strings.HasSuffix(line, "\\")
			continue
		case strings.Contains(line, ":"):
			inHeader = strings.HasSuffix(line, "\\")
			continue
		}
		body.WriteString(line)
	}
	wire, err := base64.StdEncoding.DecodeString(body.String())
	if err != nil {
		return nil, fmt.Errorf("apbot: public key: SSH2 file: %w", err)
	}
	return parseWire(wire)
}

// sshEd25519 is the SSH name of an Ed25519 key.
const sshEd25519 = "ssh-ed25519"

// parseSSHLine reads an OpenSSH line: "ssh-ed25519", the base64 of the
// key's wire format, and an optional comment.
func parseSSHLine(k string) (ed25519.PublicKey, error) {
	f := strings.Fields(k)
	switch {
	case f[0] != sshEd25519:
		return nil, fmt.Errorf("apbot: public key: type %s, want %s", f[0], sshEd25519)
	case len(f) < 2:
		return nil, errors.New("apbot: public key: an ssh-ed25519 line without its key")
	}
	wire, err := base64.StdEncoding.DecodeString(f[1])
	if err != nil {
		return nil, fmt.Errorf("apbot: public key: %w", err)
	}
	return parseWire(wire)
}

// parseWire reads the SSH wire format of an Ed25519 key (RFC 8709): the
// string "ssh-ed25519", then the string of the key's 32 bytes, each
// string its length (4 bytes, big-endian) and its bytes, nothing after.
func parseWire(wire []byte) (ed25519.PublicKey, error) {
	typ, rest, ok := sshString(wire)
	if !ok {
		return nil, errors.New("apbot: public key: not the SSH wire format of a key")
	}
	if string(typ) != sshEd25519 {
		return nil, fmt.Errorf("apbot: public key: type %q, want %s", typ, sshEd25519)
	}
	key, rest, ok := sshString(rest)
	if !ok || len(rest) > 0 || len(key) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("apbot: public key: an %s key that is not %d bytes and nothing else", sshEd25519, ed25519.PublicKeySize)
	}
	return bytes.Clone(key), nil
}

// sshString splits an SSH string (a 4-byte big-endian length, then its
// bytes) off the front of b.
func sshString(b []byte) (s, rest []byte, ok bool) {
	if len(b) < 4 {
		return nil, nil, false
	}
	n := binary.BigEndian.Uint32(b)
	if uint64(n) > uint64(len(b)-4) {
		return nil, nil, false
	}
	return b[4 : 4+n], b[4+n:], true
}

func parsePEM(k string) (ed25519.PublicKey, error) {
	block, _ := pem.Decode([]byte(k))
	if block == nil {
		return nil, errors.New("apbot: public key: a PEM block that does not decode")
	}
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("apbot: public key: PEM: %w", err)
	}
	k2, ok := pub.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("apbot: public key: PEM key of type %T, want Ed25519", pub)
	}
	return k2, nil
}
