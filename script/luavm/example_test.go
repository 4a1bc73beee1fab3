package luavm_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dpclsh/dpclsh/script/luavm"
	lua "github.com/yuin/gopher-lua"
)

func ExampleCallWithBudget() {
	L := luavm.NewSandbox()
	defer L.Close()
	fn, err := L.Load(strings.NewReader("local n = ...\nwhile n > 0 do end"), "filter.lua")
	if err != nil {
		panic(err)
	}
	_, err = luavm.CallWithBudget(L, luavm.Limits{Instructions: 10_000}, nil, fn, lua.LNumber(1))
	fmt.Println(err)
	fmt.Println(errors.Is(err, luavm.ErrBudget))
	// Output:
	// luavm: filter.lua:2: budget exceeded: more than 10000 Lua instructions in one call
	// true
}
