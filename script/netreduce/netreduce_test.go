package netreduce_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	tree "github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/script"
	_ "github.com/dpclsh/dpclsh/script/netreduce"
	"github.com/dpclsh/dpclsh/script/scripttest"
)

// TestSendingNilFails: a stream refuses to send a nil, naming it.
func TestSendingNilFails(t *testing.T) {
	s, out := scripttest.New(t)
	err := s.DoString(`net = netreduce.new{topology = "b:2^2"}
net:stream(net:broadcast(), {up = "sum"}):send("%d", nil)`, "t.lua")
	if err == nil || !strings.Contains(err.Error(), "a nil cannot be sent") {
		t.Errorf("error %v, want one saying a nil cannot be sent\n%s", err, out.String())
	}
}

func TestTCPTransportComesFromTheSessionsOptions(t *testing.T) {
	const src = `print(pcall(netreduce.new, {topology = "b:2", transport = "tcp"}))`
	var out bytes.Buffer
	plain, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if err := plain.DoString(src, "t.lua"); err != nil {
		t.Fatal(err)
	}
	var asked map[string]any
	given, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out,
		TCPTransport: func(opts map[string]any) (tree.Transport, error) {
			asked = opts
			return nil, errors.New("no comm program here")
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer given.Close()
	if err := given.DoString(src, "t.lua"); err != nil {
		t.Fatal(err)
	}
	want := "false\tt.lua:1: netreduce.new: the TCP transport is not available in this program\n" +
		"false\tt.lua:1: netreduce.new: no comm program here\n"
	if got := out.String(); got != want {
		t.Errorf("printed\n%s\nwant\n%s", got, want)
	}
	if asked["transport"] != "tcp" {
		t.Errorf("the transport was given %v, want the call's options", asked)
	}
}
