package script

import (
	"testing"
)

func TestKeyStateIsPerSessionAndDiesWithIt(t *testing.T) {
	k := NewKey[int]("test")
	a, b := NewSession(), NewSession()
	defer b.Close()
	k.Set(a, 1)
	if v, ok := k.Get(b); ok {
		t.Errorf("session b sees session a's value %d", v)
	}
	if got := k.GetOrInit(b, func() int { return 2 }); got != 2 {
		t.Errorf("GetOrInit on an empty session gave %d, want 2", got)
	}
	if got := k.GetOrInit(b, func() int { t.Error("init ran twice"); return 3 }); got != 2 {
		t.Errorf("GetOrInit gave %d after 2 was stored", got)
	}
	if v, ok := k.Get(a); !ok || v != 1 {
		t.Errorf("session a holds %d, %v; want 1, true", v, ok)
	}
	if other := NewKey[int]("test"); func() bool { _, ok := other.Get(a); return ok }() {
		t.Error("a second key of the same name reads the first key's value")
	}
	flag := NewKey[bool]("flag")
	flag.Set(a, true)
	a.Close()
	if v, ok := k.Get(a); ok {
		t.Errorf("closed session still holds %d", v)
	}
	if _, ok := flag.Get(a); ok {
		t.Error("closed session still holds its flag")
	}
}
