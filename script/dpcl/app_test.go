package dpcl

import (
	"reflect"
	"testing"

	"github.com/dpclsh/dpclsh/runtime"
)

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
