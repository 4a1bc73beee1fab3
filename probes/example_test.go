package probes_test

import (
	"fmt"
	"os"

	"github.com/dpclsh/dpclsh/ppc"
	"github.com/dpclsh/dpclsh/probes"
)

func ExampleCompile() {
	slots := probes.NewSlots(0x0f000000, 0x1000)
	n, _ := slots.Alloc("n", probes.Int)
	e := probes.Assign(n, probes.Binary(probes.KAdd, probes.Ref(n), probes.IntConst(1)))
	code, err := probes.Compile(e, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e)
	fmt.Print(code.Disasm(0x0f001000))
	// Output:
	// (n = (n + 1))
	//  f001000:	3c600f00	lis     r3,3840
	//  f001004:	80630000	lwz     r3,0(r3)
	//  f001008:	38630001	addi    r3,r3,1
	//  f00100c:	3c800f00	lis     r4,3840
	//  f001010:	90640000	stw     r3,0(r4)
}

func ExampleCheck() {
	slots := probes.NewSlots(0x0f000000, 0x1000)
	n, _ := slots.Alloc("n", probes.Int)
	_, err := probes.Check(probes.Assign(n, probes.DoubleConst(0.5)))
	fmt.Println(err)
	// Output:
	// probes: cannot assign double to int variable n in (n = 0.5)
}

func ExampleProgram_Points() {
	f, err := os.Open("testdata/points-O2.elf")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	img, err := ppc.LoadELF(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	prog := probes.NewProgram(img)
	fn, _ := prog.Lookup("tail")
	exits, _ := prog.Points(fn, probes.PointExit)
	for _, p := range exits {
		fmt.Println(p)
	}
	// Output:
	// tail exit 0x10000788 -> twice (points.c:29)
}
