package contexts

import (
	"testing"

	"github.com/dpclsh/dpclsh/internal/settwin"
)

// The naive model sets are checked against is shared with the other rank-set package's
// tests (internal/settwin).
type (
	twin    = settwin.Twin
	setCase = settwin.Case
)

var (
	newTwin = settwin.New
	sizes   = settwin.Sizes
	agrees  = settwin.Agrees
)

// sets makes the case's three sets.
func sets(t *testing.T, c setCase) (a, b, cc *Set) {
	t.Helper()
	var err error
	if a, err = FromList(c.N, c.A); err != nil {
		t.Fatal(err)
	}
	if b, err = FromList(c.N, c.B); err != nil {
		t.Fatal(err)
	}
	if cc, err = FromList(c.N, c.C); err != nil {
		t.Fatal(err)
	}
	return a, b, cc
}
