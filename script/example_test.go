package script_test

import (
	"fmt"
	"os"

	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

func ExampleSession() {
	s, err := script.NewSessionWith(script.Options{Stdout: os.Stdout, Stderr: os.Stdout})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	if err := s.DoString(`pp({rank = 3, counts = {4, 5}})`, "example.lua"); err != nil {
		panic(err)
	}
	err = s.DoString("local n = 1\nerror('no such rank')", "bad.lua")
	fmt.Print(script.FormatError(err, false))
	// Output:
	// {counts = {4, 5}, rank = 3}
	// bad.lua:2: no such rank
	//     2 | error('no such rank')
}

func ExampleFormat() {
	L := lua.NewState()
	defer L.Close()
	if err := L.DoString(`t = {10, 20, name = "x", ["two words"] = true}; t.loop = t`); err != nil {
		panic(err)
	}
	fmt.Println(script.Format(L, L.GetGlobal("t"), script.DefaultFormat))
	// Output:
	// {10, 20, loop = <cycle>, name = "x", ["two words"] = true}
}
