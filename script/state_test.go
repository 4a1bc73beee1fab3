package script

import (
	"reflect"
	"testing"

	"github.com/dpclsh/dpclsh/runtime"
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
	SetInteractive(a, true)
	a.Close()
	if v, ok := k.Get(a); ok {
		t.Errorf("closed session still holds %d", v)
	}
	if isInteractive(a) {
		t.Error("closed session is still marked interactive")
	}
}

// A luaApp answers only through its own methods: nothing of the runtime.App it wraps is
// promoted, so after app:close no method reaches the closed application.
func TestLuaAppPromotesNothingOfTheApp(t *testing.T) {
	own := reflect.TypeOf(&luaApp{})
	app := reflect.TypeOf(&runtime.App{})
	for i := range own.Elem().NumField() {
		if f := own.Elem().Field(i); f.Anonymous {
			t.Errorf("luaApp embeds %s", f.Type)
		}
	}
	for i := range app.NumMethod() {
		m := app.Method(i)
		if _, promoted := own.MethodByName(m.Name); promoted && m.Name != "Size" && m.Name != "IONodeOf" {
			t.Errorf("luaApp answers %s, a method of runtime.App", m.Name)
		}
	}
}
