package cobj_test

import (
	"fmt"
	"os"

	"github.com/dpclsh/dpclsh/probes/cobj"
)

// A module is opened, checked against the room it has, and linked at its base with the
// program's symbols (here only memcpy, at a made-up address).
func Example() {
	f, err := os.Open("testdata/counters-O2.o")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	obj, err := cobj.Open(f, "counters-O2.o")
	if err != nil {
		panic(err)
	}
	if err := obj.Fit(4096); err != nil {
		panic(err)
	}
	program := func(name string) (uint32, bool) { return 0x100225e0, name == "memcpy" }
	img, err := obj.Link(0x0f100000, program)
	if err != nil {
		panic(err)
	}
	for _, name := range []string{"record", "classify", "weigh", "calls"} {
		s := img.Symbols[name]
		fmt.Printf("%-8s func=%-5v static=%-5v in %s\n", name, s.Func, s.Local, s.Section)
	}
	_, err = obj.Link(0x0f100000, func(string) (uint32, bool) { return 0, false })
	fmt.Println(err)
	// Output:
	// record   func=true  static=false in .text
	// classify func=true  static=false in .text
	// weigh    func=true  static=true  in .text
	// calls    func=false static=false in .sbss
	// cobj: counters-O2.o: .text+0x21c: R_PPC_PLTREL24 against memcpy: undefined symbol: neither the module nor the program defines it
}
