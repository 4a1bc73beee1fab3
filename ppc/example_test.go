package ppc_test

import (
	"fmt"

	"github.com/dpclsh/dpclsh/ppc"
)

func Example() {
	inst, err := ppc.Decode(0x4200ffb8)
	if err != nil {
		panic(err)
	}
	fmt.Println(inst.Op.Name(), inst.Op.Class())
	fmt.Println(ppc.Disasm(inst, 0x10003948))

	w, err := ppc.Assemble("stwu r1,-16(r1)", 0)
	fmt.Printf("%08x %v\n", w, err)

	addi, _ := ppc.OpByName("addi")
	li := ppc.MustBuild(addi, 3, 0, -1)
	fmt.Printf("%08x %s\n", li.Word, ppc.Disasm(li, 0))

	b, _ := ppc.Branch(0x10000000, 0x10000400, true)
	fmt.Println(ppc.DisasmWord(b, 0x10000000))
	// Output:
	// bc branch
	// bdnz+   10003900
	// 9421fff0 <nil>
	// 3860ffff li      r3,-1
	// bl      10000400
}
