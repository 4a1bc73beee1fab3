package netreduce

import (
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"strings"
)

// LoadSecret reads a shared secret (hex, at least 16 bytes) from file, or from the
// SecretEnv environment variable when file is "": never from a command line, where other
// users could read it. `dpclsh comm` and a job that tools attach to both take theirs so.
func LoadSecret(file string) ([]byte, error) {
	text, from := os.Getenv(SecretEnv), SecretEnv
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		text, from = string(b), file
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, fmt.Errorf("no shared secret: set %s or give a secret file", SecretEnv)
	}
	secret, err := hex.DecodeString(text)
	if err != nil || len(secret) < 16 {
		return nil, fmt.Errorf("%s: the shared secret must be at least 16 bytes of hex", from)
	}
	return secret, nil
}

// Challenge authenticates the peer that dialed c, as a tree node authenticates its
// children: the peer must answer a fresh nonce with the HMAC of the shared secret. It
// returns the id the peer claims; ErrAuth when the peer does not know the secret.
func Challenge(c net.Conn, secret []byte) (int32, error) { return challenge(c, secret) }

// Answer is the dialer's side of Challenge, claiming id.
func Answer(c net.Conn, secret []byte, id int32) error { return answer(c, secret, id) }
